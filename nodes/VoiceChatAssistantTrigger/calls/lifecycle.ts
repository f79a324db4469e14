import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	asNodeError,
	assertReachable,
	enableWebhook,
	readAssistantStates,
	readWebhookStates,
} from '../core/service';
import type { AssistantWebhookState } from '../core/service';
import { clearCatchUp, startCatchUp } from './catchUpState';
import {
	giveBackEach,
	giveBackFrom,
	holds,
	hostOf,
	isSameNode,
	isSameWebhook,
	occupiedError,
	planRemoval,
	probe,
	registeredUrl,
	registrationMatches,
	whereCallsGo,
} from './ownership';
import type { RegisteredAssistant, Registration, WebhookTarget, Wanted } from './registration';
import { keepUnfinished, readWanted, readWorld, saveRegistration, withUnfinished } from './world';
import type { HookWorld } from './world';

/**
 * The trigger's webhook lifecycle (n8n's checkExists / create / delete), with
 * ownership: the trigger never takes a webhook away for good. What an
 * assistant posted to before is saved and given back, removal touches only an
 * assistant that still holds this trigger's URL, and checkExists asks the
 * service, so a restart repairs a registration that was lost.
 *
 * Each hook reads first (n8n and the form: world.ts; the service: readAssistantStates in
 * core/service.ts), then decides per assistant (tested without HTTP), then acts on the service.
 */

const LOG = 'Voice Chat Assistant Trigger:';

/**
 * Whether every watched assistant still sends its calls here, or to another
 * live trigger of this package that took it over (which this one respects).
 */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	// read: n8n and the form, then the service only while the saved registration is still wanted
	const world = await readWorld(ctx);
	const wanted = readWanted(ctx, world.secretVersion);
	const registration = world.registration;
	if (!registration || !registrationMatches(registration, wanted)) return false;
	await assertReachable(world.node, wanted.webhookUrl, world.serviceBaseUrl);
	const states = await readAssistantStates(ctx, registration.event, wanted.assistantIds);
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
	warnUnwatched(world.logger, previous, wanted);
	const earlierOf = (id: number) =>
		previous?.event === wanted.event ? previous.assistants.find((a) => a.id === id) : undefined;
	const planned: RegisteredAssistant[] = [];
	for (const id of wanted.assistantIds) {
		// refusals (not found, "Fail Activation") name the assistant: "Assistant <id> ..."
		const giveBack = await decideGiveBack(world, wanted, id, states.get(id)!, earlierOf(id));
		const secret = world.secretToRegister(wanted.event, id);
		planned.push({ id, url: registeredUrl(wanted.webhookUrl, id, secret), secret, giveBack });
	}
	return planned;
}

/**
 * Activation: registers the webhook URL (with a secret per assistant) on every
 * watched assistant, saving what each posted to before. All or nothing: when
 * one assistant refuses, nothing is registered; when one fails, the ones
 * registered by this call get their previous target back and the static data
 * is left as it was before the error is reported.
 */
export async function create(ctx: IHookFunctions): Promise<boolean> {
	// 1. read: n8n and the form, then what each watched assistant posts to now (the service)
	const world = await readWorld(ctx);
	const wanted = readWanted(ctx, world.secretVersion);
	await assertReachable(world.node, wanted.webhookUrl, world.serviceBaseUrl);
	const states = await readAssistantStates(ctx, wanted.event, wanted.assistantIds);
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
			// undo: what this activation registered is given back, and the failing assistant too
			// when its change was carried out with the answer lost (a timeout, a 502: it shows this
			// URL now); unread, it is kept for delete, which checks first
			const undo = [...registration.assistants];
			const kept: RegisteredAssistant[] = [];
			try {
				const state = (await readWebhookStates(ctx, wanted.event, [entry.id])).get(entry.id);
				if (state?.found && state.readable && holds(state, entry.url)) undo.push(entry);
			} catch (readError) {
				world.logger.warn(
					`${LOG} could not read assistant ${entry.id}'s webhook after a failed registration: ${(readError as Error).message}; the next deactivation checks it`,
				);
				kept.push(entry);
			}
			kept.push(
				...(await giveBackEach(
					ctx,
					world,
					wanted.event,
					undo,
					(id) => `could not give assistant ${id} its previous webhook back`,
				)),
			);
			// what could not be undone stays listed for delete; else the earlier registration, if any.
			// n8n does not save the static data of a failed create: delete finds them in memory too
			const left = kept.length ? { ...registration, assistants: kept } : undefined;
			saveRegistration(world.key, world.staticData, left ?? world.registration);
			if (left) keepUnfinished(world.key, left);
			// enableWebhook's error names the assistant, as n8n's error type
			throw asNodeError(world.node, error);
		}
		registration.assistants.push(entry);
		saveRegistration(world.key, world.staticData, registration);
	}
	// 4. calls that end from now on are this trigger's: a downtime before the first delivery is caught up too
	startCatchUp(ctx, wanted.assistantIds);
	return true;
}

/**
 * Removal: every assistant that still holds this trigger's URL gets its
 * previous target back (the first one that is still live) or, with none, its
 * webhook switched off. An assistant that posts elsewhere by now is left as it
 * is. An assistant that no longer exists counts as done. What could not be
 * given back (all of it when the service could not be read) stays saved, for
 * the next removal.
 */
export async function remove(ctx: IHookFunctions): Promise<boolean> {
	clearCatchUp(ctx);
	const world = await readWorld(ctx);
	const registration = withUnfinished(world.key, world.registration, world.logger);
	let remaining: RegisteredAssistant[] = [];
	if (registration) {
		const ids = registration.assistants.map((a) => a.id);
		const states = await readWebhookStates(ctx, registration.event, ids).catch((error: Error) => {
			world.logger.warn(`${LOG} could not read the assistants' webhooks: ${error.message}`);
		});
		// still holding this trigger's URL: given back; posting elsewhere by now or gone: left
		const holding = states && planRemoval(world, registration, states);
		remaining = holding
			? await giveBackEach(
					ctx,
					world,
					registration.event,
					holding,
					(id) => `could not remove the webhook of assistant ${id}`,
				)
			: registration.assistants;
	}
	saveRegistration(
		world.key,
		world.staticData,
		registration && { ...registration, assistants: remaining },
	);
	return remaining.length === 0;
}
