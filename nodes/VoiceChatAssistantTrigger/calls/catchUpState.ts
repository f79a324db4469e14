import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { isObject } from '../../VoiceChatAssistant/transport';
import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { INBOUND, isCallEvent } from '../core/events';
import { onRestart, processMap, processSet } from '../core/memory';
import { callId } from './catchUpList';

/**
 * The catch-up's state (catchUp.ts): per assistant, a watermark (every call
 * that ended before it was started, given up, or was not this trigger's) and
 * the calls started lately, with the service's zone. It lives in the node's
 * static data, which n8n loads per webhook request and saves whole after
 * webhook() returns (only in "Immediately"). Only a catch-up writes it, from
 * the newest state this process knows: an older copy saved later takes the
 * watermark back a little, and the replay memory skips what this process
 * caught up since. Webhook processes share the static data only:
 * deliveryElsewhere() leaves a gap to one of them. What this process knows of
 * it (the newest state, the copies n8n will save, its heartbeats, when it last
 * caught up) is process memory, made in core/memory.ts.
 */

/** Key of the catch-up state in the node's static data. */
export const CATCH_UP_KEY = 'catchUp';

/** Calls started by a catch-up are remembered this long before the watermark. */
export const REMEMBER_MS = 60 * 60_000;
/** At most this many remembered calls per assistant. */
export const MAX_REMEMBERED = 1_000;

export interface AssistantState {
	/** Watermark (epoch ms): every call that ended before it was started or given up. */
	at: number;
	/**
	 * Calls started by a catch-up, and calls delivered where the workflow answers the service
	 * (rememberDelivered): [call id, when (epoch ms)].
	 */
	recent: Array<[number, number]>;
}

export interface CatchUpState {
	/**
	 * Offset of the service's call-list times from UTC in minutes, learned
	 * from a delivered call (the list's `created_at` carries no time zone).
	 */
	zone?: number;
	assistants: Record<string, AssistantState>;
}

/** The newest state this process knows, per trigger (workflow|node). */
const newest = processMap<string, CatchUpState>();
/** When this process last began a catch-up, per trigger and assistant. */
export const lastAttempt = processMap<string, number>();
/** How many catch-ups this process began, per trigger and assistant (the second one comes sooner). */
export const attempts = processMap<string, number>();
/**
 * The static data of the requests of a trigger that are catching up right
 * now (each request has its own copy, saved whole when it ends): a write goes
 * into each, so whichever n8n saves last holds the newest state.
 */
const openCopies = processMap<string, Set<IDataObject>>();
/**
 * The static data of the latest executions of a trigger in this process (its execute(),
 * rememberDelivered): n8n saves each whole when its execution ends if anything in it changed (a
 * delivered call noted, a Code node writing static data), so later writes go into them too, and a
 * save never takes back what was written after its execution began.
 */
const runCopies = processMap<string, IDataObject[]>();
/** How many such executions of a trigger are kept (the oldest have ended long since). */
const MAX_RUN_COPIES = 100;
/** Triggers whose removal this process made (a publish or a failed start adds them back). */
const removedHere = processSet<string>();
/** Triggers whose heartbeat runs in this process (calls/heartbeat.ts): since when, per trigger. */
const heartbeats = processMap<string, number>();
/** What starts a trigger's next heartbeat round at once, per trigger (noteHeartbeat). */
const wakers = processMap<string, () => void>();
/**
 * n8n starts the heartbeats shortly after it starts (and loads this module): until this long
 * after the load, a delivery leaves the catch-up to the heartbeat that is about to start.
 */
export const HEARTBEAT_GRACE_MS = 2 * 60_000;
let loadedAt = getClock().now();
// a restart in the tests: as if n8n had started long ago (a test of a starting process sets it: heartbeatGraceFrom)
onRestart(() => {
	loadedAt = Number.NEGATIVE_INFINITY;
});

/** Where a catch-up comes from: a delivery (webhook()) or the heartbeat (trigger()). */
export type CatchUpContext = IWebhookFunctions | ITriggerFunctions;

/** Makes this process start now, as n8n's start loads this module (tests only). */
export function heartbeatGraceFrom(time: number) {
	loadedAt = time;
}

/**
 * Notes that the trigger's heartbeat runs in this process from now on (`false`: it stopped);
 * `wake` starts its next round at once (a delivery that taught the service's zone calls it).
 */
export function noteHeartbeat(ctx: ITriggerFunctions, beating: boolean, wake?: () => void): void {
	const scope = scopeOf(ctx);
	if (beating) heartbeats.set(scope, getClock().now());
	else heartbeats.delete(scope);
	if (beating && wake) wakers.set(scope, wake);
	else wakers.delete(scope);
}

export function scopeOf(ctx: IHookFunctions | IExecuteFunctions | CatchUpContext): string {
	return `${ctx.getWorkflow().id}|${ctx.getNode().id}`;
}

function readState(staticData: IDataObject): CatchUpState {
	const value = staticData[CATCH_UP_KEY];
	const state: CatchUpState = { assistants: {} };
	if (!isObject(value)) return state;
	if (typeof value.zone === 'number' && Number.isFinite(value.zone)) state.zone = value.zone;
	const assistants = isObject(value.assistants) ? value.assistants : {};
	for (const [id, entry] of Object.entries(assistants)) {
		if (!isObject(entry) || typeof entry.at !== 'number' || !Number.isFinite(entry.at)) continue;
		const recent: Array<[number, number]> = [];
		if (Array.isArray(entry.recent)) {
			for (const pair of entry.recent) {
				if (Array.isArray(pair) && typeof pair[0] === 'number' && typeof pair[1] === 'number') {
					recent.push([pair[0], pair[1]]);
				}
			}
		}
		state.assistants[id] = { at: entry.at, recent };
	}
	return state;
}

/** The saved state and the newest this process knows, merged: the later watermark, every remembered call. */
export function currentState(scope: string, staticData: IDataObject): CatchUpState {
	const saved = readState(staticData);
	const known = newest.get(scope);
	if (!known) return saved;
	const state: CatchUpState = { zone: known.zone ?? saved.zone, assistants: {} };
	if (state.zone === undefined) delete state.zone;
	for (const id of new Set([...Object.keys(saved.assistants), ...Object.keys(known.assistants)])) {
		const a = saved.assistants[id];
		const b = known.assistants[id];
		if (!a || !b) {
			state.assistants[id] = copy((a ?? b) as AssistantState);
			continue;
		}
		const recent = new Map<number, number>(a.recent);
		for (const [callId, at] of b.recent) recent.set(callId, Math.max(at, recent.get(callId) ?? 0));
		state.assistants[id] = { at: Math.max(a.at, b.at), recent: [...recent.entries()] };
	}
	return state;
}

function copy(entry: AssistantState): AssistantState {
	return { at: entry.at, recent: entry.recent.map(([id, at]) => [id, at]) };
}

/** Stores the state as a new object (so n8n notices the change and saves it) and as this process's newest. */
export function writeState(scope: string, staticData: IDataObject, state: CatchUpState) {
	const stored: IDataObject = {
		assistants: Object.fromEntries(
			Object.entries(state.assistants).map(([id, entry]) => [id, copy(entry)]),
		),
	};
	if (state.zone !== undefined) stored.zone = state.zone;
	staticData[CATCH_UP_KEY] = stored;
	for (const other of [...(openCopies.get(scope) ?? []), ...(runCopies.get(scope) ?? [])]) {
		if (other !== staticData)
			other[CATCH_UP_KEY] = JSON.parse(JSON.stringify(stored)) as IDataObject;
	}
	newest.set(scope, readState({ [CATCH_UP_KEY]: stored }));
}

/**
 * At registration (n8n's create): a watermark for every watched assistant
 * that has none; assistants no longer watched are dropped. An activation by
 * the user ("activate", "create") starts every watermark at now: calls that
 * ended while the workflow was inactive are not its. A publish, n8n's start
 * and a retried start ("update", "init", "leadershipChange") keep the
 * watermark, so calls that ended meanwhile are caught up; except after a
 * removal this process did not make (a deactivation before a restart).
 * Test webhooks keep no state.
 */
export function startCatchUp(ctx: IHookFunctions, assistantIds: number[]): void {
	if (ctx.getMode() === 'manual') return;
	const scope = scopeOf(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const saved = staticData[CATCH_UP_KEY];
	const paused = isObject(saved) && saved.removedAt !== undefined;
	const mode = ctx.getActivationMode();
	const fresh = mode === 'activate' || mode === 'create' || (paused && !removedHere.has(scope));
	removedHere.delete(scope);
	if (fresh) newest.delete(scope);
	const state = currentState(scope, staticData);
	const now = getClock().now();
	const assistants: Record<string, AssistantState> = {};
	for (const id of assistantIds) {
		const kept = fresh ? undefined : state.assistants[String(id)];
		assistants[String(id)] = kept ?? { at: now, recent: [] };
	}
	writeState(scope, staticData, { ...state, assistants });
}

/**
 * At removal (n8n's delete, for a deactivation, a publish or a failed start
 * alike: n8n names each "update"): the state is kept and marked removed; the
 * next registration decides whether it still counts (startCatchUp).
 */
export function clearCatchUp(ctx: IHookFunctions): void {
	if (ctx.getMode() === 'manual') return;
	const scope = scopeOf(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	removedHere.add(scope);
	for (const key of lastAttempt.keys()) if (key.startsWith(`${scope}|`)) lastAttempt.delete(key);
	for (const key of attempts.keys()) if (key.startsWith(`${scope}|`)) attempts.delete(key);
	// the newest this process knows goes with it (n8n saves what delete writes)
	if (!isObject(staticData[CATCH_UP_KEY])) return;
	const state = currentState(scope, staticData);
	writeState(scope, staticData, state);
	(staticData[CATCH_UP_KEY] as IDataObject).removedAt = getClock().now();
}

/**
 * In the execution a delivery started (the node's execute(), which n8n runs first in it): where
 * the workflow answers the service ("When Last Node Finishes", "Using 'Respond to Webhook'
 * Node"), the service's record of that answer cannot prove the delivery (an answer of `{}` or
 * no body looks like no answer), so the delivered calls are remembered with the catch-up's
 * state, which n8n saves when the execution ends (both lines: the execution's
 * workflowExecuteAfter hook saves changed static data). No later catch-up (after a restart, or
 * in another round) starts them again. "Immediately" answers `{received: true}` itself, which
 * proves the delivery: nothing is written. With Verify Secret off nothing is written either: an
 * unverified post must not keep the real call from being caught up. Only where the heartbeat runs
 * (n8n's regular mode): every write of this process then also goes into the execution's copy,
 * which n8n saves whole when the execution ends. A queue-mode worker knows none of the main's
 * writes, and its save would take them back: it writes nothing.
 */
export function rememberDelivered(ctx: IExecuteFunctions, items: INodeExecutionData[]): void {
	if (ctx.getMode() === 'manual') return;
	const event = ctx.getNodeParameter('event', 0, INBOUND);
	if (!isCallEvent(event)) return;
	const scope = scopeOf(ctx);
	if (!heartbeats.has(scope)) return;
	const staticData = ctx.getWorkflowStaticData('node');
	// every execution's copy gets this process's later writes: n8n saves it whole when the
	// execution ends if anything in it changed (this note, or a Code node writing static data),
	// and the save must not take the heartbeat's rounds back
	keepRunCopy(scope, staticData);
	if (ctx.getNodeParameter('responseMode', 0, 'onReceived') === 'onReceived') return;
	if (ctx.getNodeParameter('verifySecret', 0, true) === false) return;
	const state = currentState(scope, staticData);
	const now = getClock().now();
	let changed = false;
	for (const { json } of items) {
		if (json.caught_up === true || json.event !== event) continue;
		const id = callId(json.id ?? json.call_id);
		const entry = state.assistants[String(json.assistant_id)];
		if (id === undefined || !entry || entry.recent.some(([known]) => known === id)) continue;
		entry.recent.push([id, now]);
		entry.recent = entry.recent
			.filter(([, at]) => at >= entry.at - REMEMBER_MS)
			.slice(-MAX_REMEMBERED);
		changed = true;
	}
	if (changed) writeState(scope, staticData, state);
}

/** Notes an execution's copy of the static data among the latest MAX_RUN_COPIES of the trigger. */
function keepRunCopy(scope: string, staticData: IDataObject): void {
	const copies = runCopies.get(scope) ?? [];
	if (!copies.includes(staticData))
		runCopies.set(scope, [...copies, staticData].slice(-MAX_RUN_COPIES));
}

/** When the trigger's heartbeat began in this process, and whether it runs (or is about to start) here. */
export function heartbeatHere(scope: string, now: number) {
	const beatingSince = heartbeats.get(scope);
	return {
		beatingSince,
		beatsHere: beatingSince !== undefined || now - loadedAt < HEARTBEAT_GRACE_MS,
	};
}

/** Starts the trigger's next heartbeat round at once (the zone was learned). */
export function wakeHeartbeat(scope: string): void {
	wakers.get(scope)?.();
}

/**
 * Whether a test delivery may teach the zone: the workflow's heartbeat runs in this process and
 * the zone is not known yet, in this process or in the saved state.
 */
export function zoneWanted(scope: string, staticData: IDataObject): boolean {
	if (!heartbeats.has(scope) || newest.get(scope)?.zone !== undefined) return false;
	return readState(staticData).zone === undefined;
}

/**
 * The newest state this process knows of a trigger, to note in it what a test delivery learned
 * (the zone): it stays in this process's memory (a test run's copy of the static data is not the
 * active workflow's).
 */
export function knownHere(scope: string): CatchUpState {
	const known = newest.get(scope) ?? { assistants: {} };
	newest.set(scope, known);
	return known;
}

/** Notes a request's copy of the static data while it catches up (writeState writes into each); gives back what lets it go. */
export function holdCopy(scope: string, staticData: IDataObject): () => void {
	const copies = openCopies.get(scope) ?? new Set<IDataObject>();
	openCopies.set(scope, copies.add(staticData));
	return () => {
		copies.delete(staticData);
		if (!copies.size) openCopies.delete(scope);
	};
}
