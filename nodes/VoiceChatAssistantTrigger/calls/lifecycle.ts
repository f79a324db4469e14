import type { IHookFunctions, INode } from 'n8n-workflow';
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
import { newSecret } from '../core/secrets';
import { keepUnfinished, saveRegistration, withUnfinished } from './memory';
import { readWanted, registeredUrl, registrationMatches } from './registration';
import { aboutAssistant, assertReachable } from '../core/service';
import { disableWebhook, enableWebhook, restoreWebhook } from './serviceWebhooks';
import { readWorld } from './world';
import type { HookWorld } from './world';
import type { RegisteredAssistant, Registration, WebhookTarget, Wanted } from './registration';
import type { TriggerEvent } from '../core/events';

/**
 * The trigger's webhook lifecycle (n8n's checkExists / create / delete), with
 * ownership: the trigger never takes a webhook away for good. What an
 * assistant posted to before is saved and given back, removal touches only an
 * assistant that still holds this trigger's URL, and checkExists asks the
 * service, so a restart repairs a registration that was lost.
 *
 * Each hook reads first (the form: readWanted; n8n: readWorld; the service:
 * readWebhookStates), then decides per assistant, then acts on the service.
 */

const LOG = 'Voice Chat Assistant Trigger:';

/** Whether the assistant posts to the stored URL or to the one this node registers (a stale save may hold an older one). */
function holdsOwn(
	world: HookWorld,
	state: AssistantWebhookState,
	registration: Registration,
	entry: RegisteredAssistant,
): boolean {
	if (holds(state, entry.url)) return true;
	const secret = world.secretOf(registration.event, entry.id);
	return (
		secret !== undefined && holds(state, registeredUrl(registration.webhookUrl, entry.id, secret))
	);
}

/**
 * Where an assistant of the registration sends its calls, for checkExists: `here` (to this
 * trigger, or the list does not show it), `gone` (no such assistant), `lost`, or another live
 * trigger's URL on this n8n to ask (a trigger that took it over is respected).
 */
export function whereCallsGo(
	world: HookWorld,
	wanted: Wanted,
	registration: Registration,
	entry: RegisteredAssistant,
	state: AssistantWebhookState,
): 'here' | 'gone' | 'lost' | { ask: string } {
	if (!state.found) return 'gone';
	if (!state.readable || holdsOwn(world, state, registration, entry)) return 'here';
	const { url, active } = state.target;
	if (active && mayProbe(world, url) && !isSameWebhook(url, wanted.webhookUrl))
		return { ask: url as string };
	return 'lost';
}

/**
 * Whether every watched assistant still sends its calls here, or to another
 * live trigger of this package that took it over (which this one respects).
 */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	const world = await readWorld(ctx);
	const wanted = readWanted(ctx, world.secretVersion);
	await assertReachable(world.node, wanted.webhookUrl, world.serviceBaseUrl);
	const registration = world.registration;
	if (!registration || !registrationMatches(registration, wanted)) return false;
	const states = await readWebhookStates(ctx, registration.event, wanted.assistantIds);
	for (const entry of registration.assistants) {
		const where = whereCallsGo(world, wanted, registration, entry, states.get(entry.id)!);
		if (where === 'here') continue;
		if (where === 'gone') return false;
		if (where !== 'lost' && (await probe(world, where.ask)).live) {
			world.logger.info(
				`${LOG} assistant ${entry.id} sends its calls to another active trigger (${hostOf(where.ask)}), which took it over; leaving it there`,
			);
			continue;
		}
		world.logger.info(
			`${LOG} assistant ${entry.id} no longer sends its calls to this workflow; registering again`,
		);
		return false;
	}
	return true;
}

/** What to give back for one assistant, given what it posts to now; throws for "Fail Activation". */
async function decideGiveBack(
	world: HookWorld,
	wanted: Wanted,
	assistantId: number,
	state: AssistantWebhookState,
	earlier: RegisteredAssistant | undefined,
): Promise<WebhookTarget[]> {
	if (!state.found) {
		throw new NodeOperationError(world.node, `Assistant ${assistantId} not found`, {
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
		throw occupiedError(world.node, assistantId, current);
	}
	return await giveBackFrom(world, current);
}

/** Warns about assistants of an earlier registration this activation no longer watches (left as they are). */
function warnUnwatched(
	logger: HookWorld['logger'],
	previous: Registration | undefined,
	wanted: Wanted,
): void {
	if (!previous) return;
	const left = previous.assistants.filter(
		(a) => previous.event !== wanted.event || !wanted.assistantIds.includes(a.id),
	);
	if (left.length) {
		logger.warn(
			`${LOG} an earlier registration on assistant(s) ${left.map((a) => a.id).join(', ')} is no longer watched and is left as it is at the service`,
		);
	}
}

/** What each watched assistant posts to now, as the service says. */
async function readServiceStates(
	ctx: IHookFunctions,
	node: INode,
	wanted: Wanted,
): Promise<Map<number, AssistantWebhookState>> {
	try {
		return await readWebhookStates(ctx, wanted.event, wanted.assistantIds);
	} catch (error) {
		throw aboutAssistant(node, error, wanted.assistantIds[0], 'Reading the current webhook');
	}
}

/**
 * The plan of an activation, one entry per watched assistant: the URL with its secret (derived,
 * so the same for every activation of this node: core/secrets.ts; a delivery naming one assistant
 * cannot pass with another's) and what to give back on removal. Throws, before anything is
 * written, when an assistant refuses ("Fail Activation", not found).
 */
export async function planRegistration(
	world: HookWorld,
	wanted: Wanted,
	states: Map<number, AssistantWebhookState>,
): Promise<RegisteredAssistant[]> {
	const previous = world.registration;
	const earlierOf = (id: number) =>
		previous?.event === wanted.event ? previous.assistants.find((a) => a.id === id) : undefined;
	const planned: RegisteredAssistant[] = [];
	for (const id of wanted.assistantIds) {
		const secret = world.secretOf(wanted.event, id) ?? newSecret();
		try {
			const giveBack = await decideGiveBack(world, wanted, id, states.get(id)!, earlierOf(id));
			planned.push({ id, url: registeredUrl(wanted.webhookUrl, id, secret), secret, giveBack });
		} catch (error) {
			throw aboutAssistant(world.node, error, id, 'Registering the webhook');
		}
	}
	return planned;
}

/**
 * Undoes a failed activation: gives back what it registered, keeps in the
 * static data what could not be given back (else the earlier registration).
 */
async function undoRegistered(
	ctx: IHookFunctions,
	world: HookWorld,
	registration: Registration,
	failed: RegisteredAssistant,
): Promise<void> {
	const kept: RegisteredAssistant[] = [];
	const done = [...registration.assistants];
	// its change may have been carried out with the answer lost (a timeout, a 502): given back
	// too when the assistant shows this URL now; unread, kept for delete, which checks first
	try {
		const state = (await readWebhookStates(ctx, registration.event, [failed.id])).get(failed.id);
		if (state?.found && state.readable && holds(state, failed.url)) done.push(failed);
	} catch (readError) {
		world.logger.warn(
			`${LOG} could not read assistant ${failed.id}'s webhook after a failed registration: ${(readError as Error).message}; the next deactivation checks it`,
		);
		kept.push(failed);
	}
	for (const entry of done) {
		try {
			await giveBack(ctx, world, registration.event, entry);
		} catch (undoError) {
			world.logger.warn(
				`${LOG} could not give assistant ${entry.id} its previous webhook back: ${(undoError as Error).message}`,
			);
			kept.push(entry);
		}
	}
	// what could not be undone stays listed for delete; else the earlier registration, if any
	const left = kept.length ? { ...registration, assistants: kept } : world.registration;
	saveRegistration(world.key, world.staticData, left);
	// n8n does not save the static data of a failed create: delete finds them here
	if (kept.length) keepUnfinished(world.key, { ...registration, assistants: kept });
}

/**
 * Activation: registers the webhook URL (with a secret per assistant) on every
 * watched assistant, saving what each posted to before. All or nothing: when
 * one assistant refuses, nothing is registered; when one fails, the ones
 * registered by this call get their previous target back and the static data
 * is left as it was before the error is reported.
 */
export async function create(ctx: IHookFunctions): Promise<boolean> {
	// 1. read what is wanted (the form), what this node registered before (n8n), what the service has
	const world = await readWorld(ctx);
	const wanted = readWanted(ctx, world.secretVersion);
	await assertReachable(world.node, wanted.webhookUrl, world.serviceBaseUrl);
	warnUnwatched(world.logger, world.registration, wanted);
	const states = await readServiceStates(ctx, world.node, wanted);
	// 2. decide, per assistant: its URL and what to give back later (or refuse)
	const planned = await planRegistration(world, wanted, states);
	// 3. register at the service, remembering after each assistant, so a failure undoes exactly this
	const registration: Registration = {
		event: wanted.event,
		webhookUrl: wanted.webhookUrl,
		assistants: [],
		settings: wanted.settings,
	};
	if (wanted.secretVersion > 1) registration.secretVersion = wanted.secretVersion;
	for (const entry of planned) {
		try {
			await enableWebhook(ctx, wanted.event, entry.id, entry.url, wanted.settings);
		} catch (error) {
			await undoRegistered(ctx, world, registration, entry);
			throw aboutAssistant(world.node, error, entry.id, 'Registering the webhook');
		}
		registration.assistants.push(entry);
		saveRegistration(world.key, world.staticData, registration);
	}
	// 4. calls that end from now on are this trigger's: a downtime before the first delivery is caught up too
	startCatchUp(ctx, wanted.assistantIds);
	return true;
}

/** Gives one assistant its first live previous target back, or switches its webhook off when there is none. */
async function giveBack(
	ctx: IHookFunctions,
	world: HookWorld,
	event: TriggerEvent,
	entry: RegisteredAssistant,
): Promise<string> {
	const target = await firstLiveTarget(world, entry.giveBack);
	if (target) {
		const outcome = await restoreWebhook(ctx, event, entry.id, target);
		return outcome === 'gone'
			? 'gone'
			: `given back to ${target.active ? hostOf(target.url) : 'its earlier switched-off settings'}`;
	}
	const outcome = await disableWebhook(ctx, event, entry.id);
	return outcome === 'gone' ? 'gone' : 'switched off';
}

/** The assistants removal gives back: those that exist and still hold this trigger's URL (or do not show it). */
export function planRemoval(
	world: HookWorld,
	registration: Registration,
	states: Map<number, AssistantWebhookState>,
): RegisteredAssistant[] {
	return registration.assistants.filter((entry) => {
		const state = states.get(entry.id)!;
		if (!state.found) {
			world.logger.debug(`${LOG} assistant ${entry.id} no longer exists; nothing to remove`);
			return false;
		}
		if (state.readable && !holdsOwn(world, state, registration, entry)) {
			world.logger.info(
				`${LOG} assistant ${entry.id} sends its calls to ${state.target.active ? hostOf(state.target.url) : 'nowhere'} by now; left as it is`,
			);
			return false;
		}
		return true;
	});
}

/**
 * Removal: every assistant that still holds this trigger's URL gets its
 * previous target back (the first one that is still live) or, with none, its
 * webhook switched off. An assistant that posts elsewhere by now is left as it
 * is. An assistant that no longer exists counts as done.
 */
export async function remove(ctx: IHookFunctions): Promise<boolean> {
	clearCatchUp(ctx);
	const world = await readWorld(ctx);
	const registration = withUnfinished(world.key, world.registration, world.logger);
	if (!registration) {
		saveRegistration(world.key, world.staticData, undefined);
		return true;
	}
	let states: Map<number, AssistantWebhookState>;
	try {
		states = await readWebhookStates(
			ctx,
			registration.event,
			registration.assistants.map((a) => a.id),
		);
	} catch (error) {
		world.logger.warn(
			`${LOG} could not read the assistants' webhooks: ${(error as Error).message}`,
		);
		saveRegistration(world.key, world.staticData, registration);
		return false;
	}
	const remaining: RegisteredAssistant[] = [];
	for (const entry of planRemoval(world, registration, states)) {
		try {
			const outcome = await giveBack(ctx, world, registration.event, entry);
			world.logger.debug(`${LOG} assistant ${entry.id}: ${outcome}`);
		} catch (error) {
			world.logger.warn(
				`${LOG} could not remove the webhook of assistant ${entry.id}: ${(error as Error).message}`,
			);
			remaining.push(entry);
		}
	}
	saveRegistration(world.key, world.staticData, { ...registration, assistants: remaining });
	return remaining.length === 0;
}
