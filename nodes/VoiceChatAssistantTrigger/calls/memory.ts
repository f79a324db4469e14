import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { readRegistration, writeRegistration } from './registration';
import type { Registration } from './registration';

/*
 * What this process remembers of each node's registration, between hooks, keyed by the node's key
 * (world.ts): the registrations it wrote, and what a failed activation could not give back.
 */

const LOG = 'Voice Chat Assistant Trigger:';

/**
 * The registrations this process wrote, per node, oldest first (as readRegistration reads them
 * back; "null" for removed). n8n saves a webhook request's copy of the static data whole when the
 * request ends: a delivery that began before a publish and ended after it saves the registration
 * of before (without an assistant the publish added). A saved registration equal to one this
 * process wrote before its latest is such a stale save: the hooks take the latest instead
 * (newestRegistration), so the publish's assistants are still given back at the next removal.
 */
const written = new Map<string, string[]>();
/** How many of its registrations per node this process remembers. */
const MAX_WRITTEN = 20;

/**
 * Assistants a failed create could not give back, per node. n8n saves no static data when create
 * throws, and on an active workflow it then calls delete with the static data it saved last
 * (active-workflow-manager's clearWebhooks): delete takes them from here, tries again, and keeps
 * what still fails in the static data, which n8n saves after delete.
 */
const unfinished = new Map<string, Registration>();

/** Forgets what this process wrote, as a restart does (tests only). */
export function resetRegistrationMemory(): void {
	written.clear();
	unfinished.clear();
}

/** Writes the registration to the static data and notes it as this process's latest. */
export function saveRegistration(
	key: string,
	staticData: IDataObject,
	registration: Registration | undefined,
): void {
	writeRegistration(staticData, registration);
	const list = written.get(key) ?? [];
	list.push(JSON.stringify(readRegistration(staticData) ?? null));
	written.set(key, list.slice(-MAX_WRITTEN));
}

/** The saved registration, or this process's latest where the saved one is a stale save of its own. */
export function newestRegistration(
	key: string,
	staticData: IDataObject,
	logger: IHookFunctions['logger'],
): Registration | undefined {
	const saved = readRegistration(staticData);
	const list = written.get(key);
	if (!list) return saved;
	const text = JSON.stringify(saved ?? null);
	const latest = list[list.length - 1];
	if (text === latest || !list.includes(text)) return saved;
	logger.debug(`${LOG} the saved registration is an older one of this process; using its latest`);
	return (JSON.parse(latest) as Registration | null) ?? undefined;
}

/** Keeps what a failed create could not give back, for the delete n8n calls next. */
export function keepUnfinished(key: string, registration: Registration): void {
	unfinished.set(key, registration);
}

/** The stored registration with what a failed create of this node left to give back (taken once). */
export function withUnfinished(
	key: string,
	registration: Registration | undefined,
	logger: IHookFunctions['logger'],
): Registration | undefined {
	const left = unfinished.get(key);
	if (!left) return registration;
	if (registration && registration.event !== left.event) {
		// one registration per event: this one first, the failed activation's at the next delete
		logger.warn(
			`${LOG} a failed activation left assistant(s) ${left.assistants.map((a) => a.id).join(', ')} on this workflow's URL for another event; they are given back at the next deactivation`,
		);
		return registration;
	}
	unfinished.delete(key);
	if (!registration) return left;
	const ids = new Set(left.assistants.map((a) => a.id));
	return {
		...registration,
		assistants: [...left.assistants, ...registration.assistants.filter((a) => !ids.has(a.id))],
	};
}
