import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	firstLiveTarget,
	giveBackFrom,
	holds,
	hostOf,
	isSameNode,
	isSameWebhook,
	mayProbe,
	occupiedError,
	probe,
	readWebhookStates,
} from './ownership';
import type { AssistantWebhookState } from './ownership';
import { clearCatchUp, startCatchUp } from './catchUp';
import { webhookSecret, newSecret } from '../core/secrets';
import {
	readRegistration,
	readWanted,
	registeredUrl,
	registrationMatches,
	writeRegistration,
} from './registration';
import { aboutAssistant, assertReachable } from '../core/service';
import { disableWebhook, enableWebhook, restoreWebhook } from './serviceWebhooks';
import type { RegisteredAssistant, Registration, WebhookTarget, Wanted } from './registration';
import type { TriggerEvent } from '../core/events';

/**
 * The trigger's webhook lifecycle (n8n's checkExists / create / delete), with
 * ownership: the trigger never takes a webhook away for good. What an
 * assistant posted to before is saved and given back, removal touches only an
 * assistant that still holds this trigger's URL, and checkExists asks the
 * service, so a restart repairs a registration that was lost.
 */

const LOG = 'Voice Chat Assistant Trigger:';

/**
 * Assistants a failed create could not give back, per workflow and node. n8n
 * saves no static data when create throws, and on an active workflow it then
 * calls delete with the static data it saved last (active-workflow-manager's
 * clearWebhooks): delete takes them from here, tries again, and keeps what
 * still fails in the static data, which n8n saves after delete.
 */
const unfinished = new Map<string, Registration>();

/**
 * The registrations this process wrote, per workflow and node, oldest first (as readRegistration
 * reads them back; "null" for removed). n8n saves a webhook request's copy of the static data whole
 * when the request ends: a delivery that began before a publish and ended after it saves the
 * registration of before (without an assistant the publish added). A saved registration equal to
 * one this process wrote before its latest is such a stale save: the hooks take the latest instead
 * (newestRegistration), so the publish's assistants are still given back at the next removal.
 */
const written = new Map<string, string[]>();
/** How many of its registrations per node this process remembers. */
const MAX_WRITTEN = 20;

/** Forgets what this process wrote, as a restart does (tests only). */
export function resetRegistrationMemory(): void {
	written.clear();
}

/** Writes the registration to the static data and notes it as this process's latest. */
function saveRegistration(
	ctx: IHookFunctions,
	staticData: IDataObject,
	registration: Registration | undefined,
): void {
	writeRegistration(staticData, registration);
	const key = nodeKey(ctx);
	const list = written.get(key) ?? [];
	list.push(JSON.stringify(readRegistration(staticData) ?? null));
	written.set(key, list.slice(-MAX_WRITTEN));
}

/** The saved registration, or this process's latest where the saved one is a stale save of its own. */
function newestRegistration(
	ctx: IHookFunctions,
	staticData: IDataObject,
): Registration | undefined {
	const saved = readRegistration(staticData);
	const list = written.get(nodeKey(ctx));
	if (!list) return saved;
	const text = JSON.stringify(saved ?? null);
	const latest = list[list.length - 1];
	if (text === latest || !list.includes(text)) return saved;
	ctx.logger.debug(
		`${LOG} the saved registration is an older one of this process; using its latest`,
	);
	return (JSON.parse(latest) as Registration | null) ?? undefined;
}

function nodeKey(ctx: IHookFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}|${node.webhookId ?? node.id ?? node.name}`;
}

/** The URL this node registers for the assistant (the derived secret), or undefined without an API key. */
async function ownUrl(
	ctx: IHookFunctions,
	event: TriggerEvent,
	webhookUrl: string,
	assistantId: number,
): Promise<string | undefined> {
	const secret = await webhookSecret(ctx, event, assistantId);
	return secret === undefined ? undefined : registeredUrl(webhookUrl, assistantId, secret);
}

/** Whether the assistant posts to the stored URL or to the one this node registers (a stale save may hold an older one). */
async function holdsOwn(
	ctx: IHookFunctions,
	state: AssistantWebhookState,
	registration: Registration,
	entry: RegisteredAssistant,
): Promise<boolean> {
	if (holds(state, entry.url)) return true;
	const own = await ownUrl(ctx, registration.event, registration.webhookUrl, entry.id);
	return own !== undefined && holds(state, own);
}

/**
 * Whether every watched assistant still sends its calls here, or to another
 * live trigger of this package that took it over (which this one respects).
 */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	const registration = newestRegistration(ctx, ctx.getWorkflowStaticData('node'));
	const wanted = readWanted(ctx);
	await assertReachable(ctx, wanted.webhookUrl);
	if (!registration || !registrationMatches(registration, wanted)) return false;
	const states = await readWebhookStates(ctx, registration.event, wanted.assistantIds);
	for (const entry of registration.assistants) {
		const state = states.get(entry.id) as AssistantWebhookState;
		if (!state.found) return false;
		if (!state.readable || (await holdsOwn(ctx, state, registration, entry))) continue;
		if (
			state.target.active &&
			mayProbe(ctx, state.target.url) &&
			!isSameWebhook(state.target.url, wanted.webhookUrl)
		) {
			if ((await probe(ctx, state.target.url as string)).live) {
				ctx.logger.info(
					`${LOG} assistant ${entry.id} sends its calls to another active trigger (${hostOf(state.target.url)}), which took it over; leaving it there`,
				);
				continue;
			}
		}
		ctx.logger.info(
			`${LOG} assistant ${entry.id} no longer sends its calls to this workflow; registering again`,
		);
		return false;
	}
	return true;
}

/** What to give back for one assistant, given what it posts to now; throws for "Fail Activation". */
async function decideGiveBack(
	ctx: IHookFunctions,
	wanted: Wanted,
	assistantId: number,
	state: AssistantWebhookState,
	earlier: RegisteredAssistant | undefined,
): Promise<WebhookTarget[]> {
	if (!state.found) {
		throw new NodeOperationError(ctx.getNode(), `Assistant ${assistantId} not found`, {
			description: 'Check that the assistant exists and belongs to the account of the credential.',
		});
	}
	const current = state.target;
	// unreadable, or this trigger's own earlier registration: keep what was saved then
	if (!state.readable || isSameWebhook(current.url, wanted.webhookUrl))
		return earlier?.giveBack ?? [];
	if (wanted.policy === 'takeOver') return [];
	if (!current.active) {
		// posts nowhere: what was saved before (it was lost meanwhile), else the switched-off settings
		return earlier?.giveBack.length ? earlier.giveBack : [current];
	}
	if (wanted.policy === 'fail' && !isSameNode(current.url, wanted.webhookUrl)) {
		throw occupiedError(ctx, assistantId, current);
	}
	return await giveBackFrom(ctx, current);
}

/** Warns about assistants of an earlier registration this activation no longer watches (left as they are). */
function warnUnwatched(
	ctx: IHookFunctions,
	previous: Registration | undefined,
	wanted: Wanted,
): void {
	if (!previous) return;
	const left = previous.assistants.filter(
		(a) => previous.event !== wanted.event || !wanted.assistantIds.includes(a.id),
	);
	if (left.length) {
		ctx.logger.warn(
			`${LOG} an earlier registration on assistant(s) ${left.map((a) => a.id).join(', ')} is no longer watched and is left as it is at the service`,
		);
	}
}

/** What each watched assistant posts to now, as the service says. */
async function readServiceStates(
	ctx: IHookFunctions,
	wanted: Wanted,
): Promise<Map<number, AssistantWebhookState>> {
	try {
		return await readWebhookStates(ctx, wanted.event, wanted.assistantIds);
	} catch (error) {
		throw aboutAssistant(
			ctx.getNode(),
			error,
			wanted.assistantIds[0],
			'Reading the current webhook',
		);
	}
}

/**
 * Undoes a failed activation: gives back what it registered, keeps in the
 * static data what could not be given back (else the earlier registration).
 */
async function undoRegistered(
	ctx: IHookFunctions,
	staticData: IDataObject,
	registration: Registration,
	previous: Registration | undefined,
	failed?: RegisteredAssistant,
): Promise<void> {
	const kept: RegisteredAssistant[] = [];
	const done = [...registration.assistants];
	if (failed) {
		// its change may have been carried out with the answer lost (a timeout, a 502): given back
		// too when the assistant shows this URL now; unread, kept for delete, which checks first
		try {
			const state = (await readWebhookStates(ctx, registration.event, [failed.id])).get(failed.id);
			if (state?.found && state.readable && holds(state, failed.url)) done.push(failed);
		} catch (readError) {
			ctx.logger.warn(
				`${LOG} could not read assistant ${failed.id}'s webhook after a failed registration: ${(readError as Error).message}; the next deactivation checks it`,
			);
			kept.push(failed);
		}
	}
	for (const entry of done) {
		const state = entry;
		try {
			await giveBack(ctx, registration.event, state);
		} catch (undoError) {
			ctx.logger.warn(
				`${LOG} could not give assistant ${state.id} its previous webhook back: ${(undoError as Error).message}`,
			);
			kept.push(state);
		}
	}
	// what could not be undone stays listed for delete; else the earlier registration, if any
	saveRegistration(ctx, staticData, kept.length ? { ...registration, assistants: kept } : previous);
	// n8n does not save the static data of a failed create: delete finds them here
	if (kept.length) unfinished.set(nodeKey(ctx), { ...registration, assistants: kept });
}

/**
 * Activation: registers the webhook URL (with a secret per assistant) on every
 * watched assistant, saving what each posted to before. All or nothing: when
 * one assistant fails, the ones registered by this call get their previous
 * target back and the static data is left as it was before the error is
 * reported.
 */
export async function create(ctx: IHookFunctions): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	// 1. read what is wanted (the form) and what this node registered before (the static data)
	const wanted = readWanted(ctx);
	await assertReachable(ctx, wanted.webhookUrl);
	const previous = newestRegistration(ctx, staticData);
	warnUnwatched(ctx, previous, wanted);
	const earlierOf = (id: number) =>
		previous?.event === wanted.event ? previous.assistants.find((a) => a.id === id) : undefined;

	// 2. read what the service has: where each assistant posts now
	const states = await readServiceStates(ctx, wanted);

	const registration: Registration = {
		event: wanted.event,
		webhookUrl: wanted.webhookUrl,
		assistants: [],
		settings: wanted.settings,
	};
	if (wanted.secretVersion > 1) registration.secretVersion = wanted.secretVersion;
	for (const assistantId of wanted.assistantIds) {
		// a secret per assistant: a delivery naming one assistant cannot pass with another's;
		// derived, so the same for every activation of this node (core/secrets.ts)
		const secret = (await webhookSecret(ctx, wanted.event, assistantId)) ?? newSecret();
		const url = registeredUrl(wanted.webhookUrl, assistantId, secret);
		let attempted: RegisteredAssistant | undefined;
		try {
			// 3. decide what to give back later (or refuse, for "Fail Activation")
			const state = states.get(assistantId)!;
			const giveBack = await decideGiveBack(
				ctx,
				wanted,
				assistantId,
				state,
				earlierOf(assistantId),
			);
			// 4. register at the service
			attempted = { id: assistantId, url, secret, giveBack };
			await enableWebhook(ctx, wanted.event, assistantId, url, wanted.settings);
			// 5. remember, after each assistant, so a failure later undoes exactly this
			registration.assistants.push(attempted);
			saveRegistration(ctx, staticData, registration);
		} catch (error) {
			const failed = registration.assistants.includes(attempted!) ? undefined : attempted;
			await undoRegistered(ctx, staticData, registration, previous, failed);
			throw aboutAssistant(ctx.getNode(), error, assistantId, 'Registering the webhook');
		}
	}
	// 6. calls that end from now on are this trigger's: a downtime before the first delivery is caught up too
	startCatchUp(ctx, wanted.assistantIds);
	return true;
}

/** The stored registration with what a failed create of this node left to give back (taken once). */
function withUnfinished(
	ctx: IHookFunctions,
	registration: Registration | undefined,
): Registration | undefined {
	const key = nodeKey(ctx);
	const left = unfinished.get(key);
	if (!left) return registration;
	if (registration && registration.event !== left.event) {
		// one registration per event: this one first, the failed activation's at the next delete
		ctx.logger.warn(
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

/** Gives one assistant its first live previous target back, or switches its webhook off when there is none. */
async function giveBack(
	ctx: IHookFunctions,
	event: TriggerEvent,
	entry: RegisteredAssistant,
): Promise<string> {
	const target = await firstLiveTarget(ctx, entry.giveBack);
	if (target) {
		const outcome = await restoreWebhook(ctx, event, entry.id, target);
		return outcome === 'gone'
			? 'gone'
			: `given back to ${target.active ? hostOf(target.url) : 'its earlier switched-off settings'}`;
	}
	const outcome = await disableWebhook(ctx, event, entry.id);
	return outcome === 'gone' ? 'gone' : 'switched off';
}

/**
 * Removal: every assistant that still holds this trigger's URL gets its
 * previous target back (the first one that is still live) or, with none, its
 * webhook switched off. An assistant that posts elsewhere by now is left as it
 * is. An assistant that no longer exists counts as done.
 */
export async function remove(ctx: IHookFunctions): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	clearCatchUp(ctx);
	const registration = withUnfinished(ctx, newestRegistration(ctx, staticData));
	if (!registration) {
		saveRegistration(ctx, staticData, undefined);
		return true;
	}
	const remaining: RegisteredAssistant[] = [];
	let states: Map<number, AssistantWebhookState> | undefined;
	try {
		states = await readWebhookStates(
			ctx,
			registration.event,
			registration.assistants.map((a) => a.id),
		);
	} catch (error) {
		ctx.logger.warn(`${LOG} could not read the assistants' webhooks: ${(error as Error).message}`);
		saveRegistration(ctx, staticData, registration);
		return false;
	}
	for (const entry of registration.assistants) {
		const state = states.get(entry.id) as AssistantWebhookState;
		if (!state.found) {
			ctx.logger.debug(`${LOG} assistant ${entry.id} no longer exists; nothing to remove`);
			continue;
		}
		if (state.readable && !(await holdsOwn(ctx, state, registration, entry))) {
			ctx.logger.info(
				`${LOG} assistant ${entry.id} sends its calls to ${state.target.active ? hostOf(state.target.url) : 'nowhere'} by now; left as it is`,
			);
			continue;
		}
		try {
			const outcome = await giveBack(ctx, registration.event, entry);
			ctx.logger.debug(`${LOG} assistant ${entry.id}: ${outcome}`);
		} catch (error) {
			ctx.logger.warn(
				`${LOG} could not remove the webhook of assistant ${entry.id}: ${(error as Error).message}`,
			);
			remaining.push(entry);
		}
	}
	saveRegistration(ctx, staticData, { ...registration, assistants: remaining });
	return remaining.length === 0;
}
