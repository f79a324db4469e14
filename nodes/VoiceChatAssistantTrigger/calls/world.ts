import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../VoiceChatAssistant/transport';
import { credentialSettings } from '../../VoiceChatAssistant/transport/credentials';
import { CALL_AND_CHAT_EVENTS, CALL_EVENTS, INBOUND, readAssistantIds } from '../core/events';
import type { TriggerEvent } from '../core/events';
import { assistantSecrets, newSecret, nodeParts, safeEqual } from '../core/secrets';
import { copyTarget, EXISTING_WEBHOOK_POLICIES, readTargets } from './registration';
import type {
	ExistingWebhookPolicy,
	RegisteredAssistant,
	Registration,
	Wanted,
} from './registration';
import type { Owner } from './ownership';
import { processMap } from '../core/memory';

/**
 * What a hook of the call family (checkExists, create, delete) reads once, at its start, and
 * where the registration is kept: the node and its key, its static data and the registration
 * saved there, what this process remembers of it, the credential (its secrets and Base URL),
 * where this n8n's webhooks are (the URLs it may probe), and what the form asks for
 * (readWanted). What the service has: readAssistantStates (core/service.ts).
 *
 * The registration is kept in the node's static data, which n8n saves with the
 * workflow: `checkExists` compares it with the node's current settings (so a
 * restart does not register twice) and `delete` undoes exactly what it lists.
 */

const LOG = 'Voice Chat Assistant Trigger:';
/** Key of the registration in the node's static data. */
const KEY = 'registration';

export interface HookWorld extends Owner {
	node: INode;
	/** The workflow and node, as the secrets take them (core/secrets.ts): the key of process memory. */
	key: string;
	staticData: IDataObject;
	/** The saved registration, or this process's latest where the saved one is a stale save of its own. */
	registration: Registration | undefined;
	/** Options → URL Secret Version. */
	secretVersion: number;
	/** The secret to register in one assistant's URL: secretOf, or a random one without an API key. */
	secretToRegister(event: TriggerEvent, assistantId: number): string;
	/** The credential's Base URL (rejects as reading the credential did). */
	serviceBaseUrl(): Promise<string>;
}

export async function readWorld(ctx: IHookFunctions): Promise<HookWorld> {
	const credential = credentialSettings(ctx);
	const authorization = await credential.then(
		(settings) => settings.authorization,
		() => undefined,
	);
	const { version, secretOf } = assistantSecrets(ctx, authorization);
	const secretToRegister = (event: TriggerEvent, assistantId: number) =>
		secretOf(event, assistantId) ?? newSecret();
	const key = nodeParts(ctx).join('|');
	const staticData = ctx.getWorkflowStaticData('node');
	return {
		node: ctx.getNode(),
		key,
		staticData,
		registration: newestRegistration(key, staticData, ctx.logger),
		secretVersion: version,
		secretOf,
		secretToRegister,
		serviceBaseUrl: async () => (await credential).baseUrl,
		authorization,
		bases: webhookBases(ctx.getNodeWebhookUrl('default') ?? ''),
		httpRequest: async (options) => await ctx.helpers.httpRequest(options),
		logger: ctx.logger,
	};
}

export function readEvent(ctx: Pick<IHookFunctions, 'getNodeParameter'>): TriggerEvent {
	const event = ctx.getNodeParameter('event', INBOUND) as TriggerEvent;
	return CALL_AND_CHAT_EVENTS.includes(event) ? event : INBOUND;
}

/** The assistants the form watches, or none when they cannot be read (a post's check reads them). */
export function readWatchedIds(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter'>,
): number[] {
	try {
		return readAssistantIds(ctx);
	} catch {
		return [];
	}
}

/** Whose post it is (readPoster), read once at its start. */
export interface Poster {
	/** This node's registration, as saved. */
	registration: Registration | undefined;
	event: TriggerEvent;
	/** The registered assistant whose secret the post carries, else undefined. */
	entry: RegisteredAssistant | undefined;
	/** The watched assistants: the registration's, else the form's (none when unreadable). */
	watched: () => number[];
	/** The credential's Authorization header, read at most once (undefined when unreadable). */
	authorization: () => Promise<string | undefined>;
}

/**
 * Whose post it is: the registration, the event, and the registered assistant the post names
 * (`named`, its `assistant_id`) when it carries that assistant's `secret` (compared in constant
 * time). The secret is the one stored with the registration or the one this node derives for a
 * watched assistant (core/secrets.ts): a stale save of the static data, or a publish that
 * registered again, does not turn a delivery away. The stored secret is compared first, so a
 * delivery reads the credential only when it does not match (and at most once).
 */
export async function readPoster(
	ctx: IWebhookFunctions,
	posted: { named: number | string | null; secret: string | undefined },
): Promise<Poster> {
	const registration = readRegistration(ctx.getWorkflowStaticData('node'));
	// the secret is the form's event's (a publish may have changed it since the registration)
	const formEvent = readEvent(ctx);
	const event = registration?.event ?? formEvent;
	let formIds: number[] | undefined;
	const fromForm = () => (formIds ??= readWatchedIds(ctx));
	const watched = () => (registration ? registration.assistants.map((a) => a.id) : fromForm());
	let credential: Promise<string | undefined> | undefined;
	const authorization = () =>
		(credential ??= credentialSettings(ctx).then(
			(settings) => settings.authorization,
			() => undefined,
		));
	const poster = { registration, event, watched, authorization, entry: undefined };
	const { named: id, secret } = posted;
	if (typeof id !== 'number' || secret === undefined || secret === '') return poster;
	const entry = registration?.assistants.find((a) => a.id === id);
	if (!entry && !fromForm().includes(id)) return poster;
	if (entry && safeEqual(secret, entry.secret)) return { ...poster, entry };
	const derived = assistantSecrets(ctx, await authorization()).secretOf(formEvent, id);
	if (derived === undefined || !safeEqual(secret, derived)) return poster;
	return { ...poster, entry: entry ?? { id, url: '', secret: derived, giveBack: [] } };
}

/** What the form asks for; `secretVersion` is the form's URL Secret Version (world.ts reads it). */
export function readWanted(ctx: IHookFunctions, secretVersion: number): Wanted {
	const webhookUrl = ctx.getNodeWebhookUrl('default');
	if (!webhookUrl) {
		throw new NodeOperationError(
			ctx.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	}
	const event = readEvent(ctx);
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	if (
		CALL_EVENTS[event].calls &&
		options.downloadRecording === true &&
		ctx.getNodeParameter('verifySecret', true) === false
	) {
		throw new NodeOperationError(
			ctx.getNode(),
			'"Download Recording" needs "Verify Secret" to be on',
			{
				description:
					'Without the secret check anyone who knows the webhook URL can post made-up call data, and the trigger fetches no recording for such a post. Turn "Verify Secret" on, or turn the option "Download Recording" off.',
			},
		);
	}
	const policy = ctx.getNodeParameter(
		'existingWebhook',
		'takeOverAndGiveBack',
	) as ExistingWebhookPolicy;
	const wanted: Wanted = {
		event,
		webhookUrl,
		assistantIds: readAssistantIds(ctx),
		policy: EXISTING_WEBHOOK_POLICIES.includes(policy) ? policy : 'takeOverAndGiveBack',
		secretVersion,
	};
	if (CALL_EVENTS[event].postCallSettings) {
		wanted.settings = {
			send_webhook_only_on_completed: options.onlyCompletedCalls !== false,
			include_recording_in_webhook: options.includeRecording !== false,
		};
	}
	return wanted;
}

/**
 * The bases of this n8n's webhook URLs, from this trigger's webhook URL: its
 * origin and path without the last two segments (`/<webhook id>/webhook`),
 * e.g. `https://n8n.example.com/webhook`, and the same with the test endpoint
 * (`/webhook-test`) for a production URL, or the production endpoint for a
 * test URL, so that a test listener and an active workflow of this n8n can
 * ask each other.
 */
export function webhookBases(webhookUrl: string): string[] {
	try {
		const url = new URL(webhookUrl);
		const segments = url.pathname.replace(/\/+$/, '').split('/');
		if (segments.length < 4) return [];
		const prefix = segments.slice(0, -3).join('/');
		const endpoint = segments[segments.length - 3];
		const twin = endpoint.endsWith('-test')
			? endpoint.slice(0, -'-test'.length)
			: `${endpoint}-test`;
		return [endpoint, twin].filter(Boolean).map((e) => `${url.origin}${prefix}/${e}`);
	} catch {
		return [];
	}
}

export function readRegistration(staticData: IDataObject): Registration | undefined {
	const value = staticData[KEY];
	if (!isObject(value)) return undefined;
	const { event, webhookUrl, assistants, settings, secretVersion } = value;
	// saved before secrets were per assistant: one secret for all
	const shared = typeof value.secret === 'string' && value.secret ? value.secret : undefined;
	if (!CALL_AND_CHAT_EVENTS.includes(event as TriggerEvent)) return undefined;
	if (typeof webhookUrl !== 'string' || !Array.isArray(assistants)) return undefined;
	const list: RegisteredAssistant[] = [];
	for (const entry of assistants) {
		if (!isObject(entry) || typeof entry.id !== 'number' || typeof entry.url !== 'string')
			return undefined;
		const secret = typeof entry.secret === 'string' && entry.secret ? entry.secret : shared;
		if (secret === undefined) return undefined;
		list.push({ id: entry.id, url: entry.url, secret, giveBack: readTargets(entry.giveBack) });
	}
	const registration: Registration = {
		event: event as TriggerEvent,
		webhookUrl,
		assistants: list,
	};
	if (typeof secretVersion === 'number' && secretVersion > 1)
		registration.secretVersion = secretVersion;
	if (isObject(settings)) {
		registration.settings = {
			send_webhook_only_on_completed: settings.send_webhook_only_on_completed !== false,
			include_recording_in_webhook: settings.include_recording_in_webhook !== false,
		};
	}
	return registration;
}

/** Replaces the stored registration (a new object, so n8n notices the change and saves it). */
export function writeRegistration(
	staticData: IDataObject,
	registration: Registration | undefined,
): void {
	if (registration === undefined || registration.assistants.length === 0) {
		if (KEY in staticData) delete staticData[KEY];
		return;
	}
	const stored: IDataObject = {
		event: registration.event,
		webhookUrl: registration.webhookUrl,
		assistants: registration.assistants.map((a) => ({
			id: a.id,
			url: a.url,
			secret: a.secret,
			giveBack: a.giveBack.map(copyTarget),
		})),
	};
	if (registration.settings) stored.settings = { ...registration.settings };
	if (registration.secretVersion) stored.secretVersion = registration.secretVersion;
	staticData[KEY] = stored;
}

/**
 * The registrations this process wrote, per node, oldest first (as readRegistration reads them
 * back; "null" for removed). n8n saves a webhook request's copy of the static data whole when the
 * request ends: a delivery that began before a publish and ended after it saves the registration
 * of before (without an assistant the publish added). A saved registration equal to one this
 * process wrote before its latest is such a stale save: the hooks take the latest instead
 * (newestRegistration), so the publish's assistants are still given back at the next removal.
 */
const written = processMap<string, string[]>();
/** How many of its registrations per node this process remembers. */
const MAX_WRITTEN = 20;

/**
 * Assistants a failed create could not give back, per node. n8n saves no static data when create
 * throws, and on an active workflow it then calls delete with the static data it saved last
 * (active-workflow-manager's clearWebhooks): delete takes them from here, tries again, and keeps
 * what still fails in the static data, which n8n saves after delete.
 */
const unfinished = processMap<string, Registration>();

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
