import type { IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { isoSeconds } from '../../VoiceChatAssistant/transport/serviceTime';
import { deliveryKey } from '../core/payload';
import { receivedHere, remember } from '../core/replays';
import { callId, MAX_CALL_MS, MAX_PAGES, MAX_ROUND_PAGES, readCalls } from './catchUpList';
import type { CallsRead } from './catchUpList';
import { planStarts } from './catchUpSelect';
import type { Delivered } from './catchUpSelect';
import { downloadCaughtUpRecordings } from './catchUpRecordings';
import {
	attempts,
	currentState,
	heartbeatHere,
	holdCopy,
	knownHere,
	lastAttempt,
	MAX_REMEMBERED,
	REMEMBER_MS,
	scopeOf,
	wakeHeartbeat,
	writeState,
	zoneWanted,
} from './catchUpState';
import type { CatchUpContext } from './catchUpState';
import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { processSet } from '../core/memory';

export { MAX_CALL_MS, MAX_PAGES, MAX_ROUND_PAGES, MAX_STARTS, PER_PAGE } from './catchUpList';
export {
	CATCH_UP_DOWNLOAD_BUDGET_MS,
	CATCH_UP_DOWNLOADS_AT_ONCE,
	MAX_CATCH_UP_DOWNLOADS,
} from './catchUpRecordings';
export type { Delivered } from './catchUpSelect';

/**
 * Catching up what n8n could not receive. The service posts each ended call
 * once; SPEC promises no retry of a call webhook, so a call that ended while
 * n8n could not receive (an update, a restart, a crash, a network outage) is
 * never delivered. The trigger keeps, per assistant, a watermark: every call
 * that ended before it was started, given up, or was not this trigger's.
 * With the first delivery of an assistant since n8n started, with the first
 * one after the calls that first catch-up left to their delivery are a
 * minute old, and whenever a delivery arrives and the watermark lags by more
 * than LAG_MS, the trigger reads the assistant's calls since the watermark and starts the
 * ones that ended meanwhile and that no receiver answered (the call's
 * `webhook_response`), oldest first, with the delivered call. With Download
 * Recording, their recordings are downloaded a few at a time and at most so
 * many per catch-up (catchUpRecordings.ts); the others come with
 * `recording_error`.
 *
 * The state it keeps, and what this process knows of it: catchUpState.ts.
 */

/** A delivery catches up when the watermark is older than this. */
export const LAG_MS = 3 * 60_000;
/** After a catch-up that failed, the next one waits this long. */
export const RETRY_MS = 60_000;
/**
 * A call that ended this recently is left to its own delivery (the service
 * sends it the moment the call ends): calls that end together stay one
 * execution each. The watermark stays before them, so the next catch-up
 * starts one whose delivery never came.
 */
export const LEFT_TO_DELIVERY_MS = 60_000;
const LOG = 'Voice Chat Assistant Trigger:';

/** Catch-ups under way, per trigger and assistant: one at a time. */
const running = processSet<string>();
/**
 * How far the watermark may lag before a delivery catches up, after `done` catch-ups of this
 * process: the first at once, the second once the calls the first left to their delivery are
 * a minute old, later ones at LAG_MS.
 */
function deliveryLag(done: number): number {
	if (done === 0) return LEFT_TO_DELIVERY_MS;
	if (done === 1) return 2 * LEFT_TO_DELIVERY_MS;
	return LAG_MS;
}

/**
 * The items one delivery starts: the delivered call's item and, with it, the
 * calls that ended while n8n could not receive (oldest first, marked
 * `caught_up`). When the service waits for the workflow's answer ("When Last
 * Node Finishes", "Using 'Respond to Webhook' Node"), the delivered call comes
 * first, so the answer is about it. Called by webhook() once the item is built.
 */
export async function withCaughtUp(
	ctx: IWebhookFunctions,
	item: INodeExecutionData,
	delivered: Delivered,
): Promise<INodeExecutionData[]> {
	const caught = await catchUp(ctx, delivered);
	if (!caught.length) return [item];
	const immediately = ctx.getNodeParameter('responseMode', 'onReceived') === 'onReceived';
	return immediately ? [...caught, item] : [item, ...caught];
}

/**
 * What one catch-up does, decided before it reads the list (planCatchUp): `test`, a test delivery
 * teaches the active workflow's heartbeat the service's zone (in process memory only); `zone`, a
 * delivery while the heartbeat runs here teaches it (saved); `calls`, the calls since the
 * watermark start.
 */
interface CatchUpPlan {
	kind: 'test' | 'zone' | 'calls';
	assistantId: number;
	scope: string;
	staticData: IDataObject;
	now: number;
	/** When the heartbeat began in this process, if it runs here. */
	beatingSince: number | undefined;
	/** Gives back what the catch-up holds in process memory while it runs. */
	release: () => void;
	/** The catch-up was left to another process: it does not count as tried. */
	untried: () => void;
}

/**
 * For a production delivery of a call: when the watermark lags, the calls
 * that ended since and reached no workflow, as items (oldest first, marked
 * `caught_up`), and the watermark moved on. Otherwise nothing, and nothing
 * written. A failed catch-up starts nothing extra, is logged, and leaves the
 * watermark where it was, so a later delivery tries again. Read, decide, act:
 * the plan (planCatchUp), one read of the list (readCalls), the decision on
 * the listed calls (planStarts, pure), then the state written and the items built.
 */
export async function catchUp(
	ctx: CatchUpContext,
	delivered: Delivered,
	heartbeat = false,
): Promise<INodeExecutionData[]> {
	const plan = planCatchUp(ctx, delivered, heartbeat);
	if (!plan) return [];
	const { kind, assistantId, scope, staticData, now } = plan;
	const { event, payload } = delivered;
	const round = ctx.getMode() === 'trigger';
	// the watermark as this process knows it now (a test reads the last hour)
	const since =
		kind === 'test' ? now : currentState(scope, staticData).assistants[String(assistantId)].at;
	try {
		let read: CallsRead;
		try {
			read = await readCalls(ctx, {
				event,
				assistantId,
				since: since - MAX_CALL_MS,
				teaching: delivered.verified ? payload : undefined,
				knownZone: () => (kind === 'calls' ? currentState(scope, staticData).zone : undefined),
				now,
				// a heartbeat round reads further than a delivery, which the service waits for
				pages: kind === 'test' ? 1 : round ? MAX_ROUND_PAGES : MAX_PAGES,
				probeKey: kind === 'calls' ? `${scope}|${assistantId}` : undefined,
			});
		} catch (error) {
			const message = (error as Error).message;
			if (kind === 'test') {
				ctx.logger.debug(
					`${LOG} a test delivery could not read the calls of assistant ${assistantId} to learn the service's time zone: ${message}`,
				);
			} else if (kind === 'zone') {
				ctx.logger.warn(
					`${LOG} could not read the calls of assistant ${assistantId} to learn the service's time zone: ${message}; a later call tries again`,
				);
			} else {
				// the delivered call still starts; a later delivery tries again from the same watermark
				ctx.logger.warn(
					`${LOG} could not catch up the calls of assistant ${assistantId} that ended since ${isoSeconds(since)}: ${message}; ${round ? 'the next round' : 'a later call'} tries again`,
				);
			}
			return [];
		}
		if (kind !== 'calls') {
			// the zone learned, and the heartbeat's next round started at once: the calls that were
			// missed start there, each in an execution of its own; this delivery starts only its own
			if (read.learned === undefined) return [];
			if (kind === 'test') {
				// a test run's copy of the static data is not the active workflow's
				knownHere(scope).zone = read.learned;
			} else {
				// read again: another request of this process may have moved it while the list was read
				const state = currentState(scope, staticData);
				state.zone = read.learned;
				writeState(scope, staticData, state);
			}
			wakeHeartbeat(scope);
			return [];
		}
		// read again: another request of this process may have moved it while the list was read
		const state = currentState(scope, staticData);
		if (read.zone !== undefined) state.zone = read.zone;
		const entry = state.assistants[String(assistantId)];
		if (!entry) return [];
		if (!read.listed) {
			// the heartbeat waits quietly for a delivered call or a new call between two rounds; a
			// delivery says why it could not
			ctx.logger[round ? 'debug' : 'warn'](
				`${LOG} could not catch up the calls of assistant ${assistantId}: the call list's time zone is not known yet (it is learned from a delivered call with a verified secret, or from a call that starts between two of the trigger's reads); a later call tries again`,
			);
			return [];
		}
		const until = now - LEFT_TO_DELIVERY_MS;
		const deliveredId = delivered.verified ? callId(payload.id) : undefined;
		const decided = planStarts(read.listed, delivered, {
			assistantId,
			since: entry.at,
			until,
			now,
			deliveredId,
			beatingSince: plan.beatingSince,
			remembered: new Set(entry.recent.map(([id]) => id)),
			here: (id) => receivedHere(deliveryKey(scope, event, { id })),
		});
		if ('elsewhere' in decided) {
			const id = String(decided.elsewhere.id);
			ctx.logger.debug(
				decided.through === 'delivery'
					? `${LOG} call ${id} of assistant ${assistantId} ended just before call ${deliveredId} and may be on its way through another process, whose delivery catches up`
					: `${LOG} call ${id} of assistant ${assistantId} reached this trigger through another n8n process, whose deliveries catch up`,
			);
			plan.untried();
			return [];
		}
		const { start, later } = decided;
		// remembered before any await (its item always goes out, with recording_error at worst): a
		// delivery arriving meanwhile starts nothing
		for (const { id } of start) {
			const key = deliveryKey(scope, event, { id });
			if (key !== undefined) remember(key);
		}
		if (!read.complete) {
			const oldest = read.calls[read.calls.length - 1];
			ctx.logger.warn(
				`${LOG} catching up assistant ${assistantId} read ${read.calls.length} calls without reaching ${isoSeconds(entry.at)}; its calls that ended since then and are older than call ${String(oldest?.id)} (created ${String(oldest?.created_at)}) are not started`,
			);
		}
		const started = start.map(({ id }) => id);
		for (const id of started) entry.recent.push([id, now]);
		const nextEnd = Math.min(...later.map((call) => call.ended as number));
		entry.at = Math.max(entry.at, Math.min(until, nextEnd));
		entry.recent = entry.recent
			.filter(([, at]) => at >= entry.at - REMEMBER_MS)
			.slice(-MAX_REMEMBERED);
		// written before the items are built: a delivery arriving meanwhile sees the new watermark
		writeState(scope, staticData, state);
		if (started.length) {
			const ids =
				started.length <= 20
					? started.join(', ')
					: `${started.slice(0, 3).join(', ')}, ... ${started[started.length - 1]}`;
			const rest = later.length ? `; ${later.length} more start at the next catch-up` : '';
			ctx.logger.info(
				`${LOG} caught up ${started.length} call(s) of assistant ${assistantId} that ended while n8n could not receive (ids ${ids})${rest}`,
			);
		}
		// the items in their order (oldest first); their recordings a few at a time, within a bound
		const recordings = start.flatMap(({ recording }) => (recording ? [recording] : []));
		await downloadCaughtUpRecordings(ctx, recordings, assistantId);
		return start.map(({ item }) => item);
	} finally {
		plan.release();
	}
}

/**
 * Whether and how this delivery (or heartbeat round) catches up (CatchUpPlan), and what it takes in
 * process memory meanwhile; undefined when it does nothing. Only calls are caught up (the delivery
 * and the heartbeat ask only for a call event's); a test delivery only teaches the zone; only an
 * assistant this trigger registered is caught up (its calls are the ones it may start).
 */
function planCatchUp(
	ctx: CatchUpContext,
	delivered: Delivered,
	heartbeat: boolean,
): CatchUpPlan | undefined {
	const assistantId = typeof delivered.assistantId === 'number' ? delivered.assistantId : undefined;
	if (assistantId === undefined) return undefined;
	const now = getClock().now();
	const scope = scopeOf(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const nothingHeld = { release: () => {}, untried: () => {} };
	if (ctx.getMode() === 'manual') {
		// a test delivery ("Listen for test event") with a verified secret teaches the zone while the
		// workflow is active, its heartbeat runs in this process and the zone is not known yet: kept
		// in this process's memory only (a test run's copy of the static data is not the active
		// workflow's), and the heartbeat's next round started at once, so the call the test got (its
		// answer says a test listener took it) starts the active workflow at the round after it is a
		// minute old, as the form promises; else a workflow that never had a production delivery
		// would not know the zone until a later call
		if (!delivered.verified || !zoneWanted(scope, staticData)) return undefined;
		return {
			kind: 'test',
			assistantId,
			scope,
			staticData,
			now,
			beatingSince: undefined,
			...nothingHeld,
		};
	}
	if (!delivered.registration?.assistants.some((entry) => entry.id === assistantId)) {
		return undefined;
	}
	const memoryKey = `${scope}|${assistantId}`;
	const state = currentState(scope, staticData);
	const entry = state.assistants[String(assistantId)];
	if (!entry) {
		// registered before the trigger kept a watermark: it starts here
		state.assistants[String(assistantId)] = { at: now, recent: [] };
		writeState(scope, staticData, state);
		return undefined;
	}
	// with the heartbeat running here, it catches up, one execution per call; a delivery only
	// reads the list while the service's zone is not known (a delivered call is what teaches it),
	// and leaves the calls it finds to the heartbeat's next round, which it starts at once
	const { beatingSince, beatsHere } = heartbeatHere(scope, now);
	const teaches = !heartbeat && beatsHere && delivered.verified && state.zone === undefined;
	if (!heartbeat && beatsHere && !teaches) return undefined;
	// the heartbeat's rounds and the deliveries' catch-ups are counted apart
	const attemptKey = heartbeat ? `${memoryKey}|heartbeat` : memoryKey;
	const tried = lastAttempt.get(attemptKey);
	// the first call of the assistant since n8n started catches up at once, and the second as soon
	// as the calls the first left to their delivery (those that ended while n8n was starting) are a
	// minute old; later ones when the watermark lags
	const done = attempts.get(attemptKey) ?? 0;
	const lag = heartbeat ? LEFT_TO_DELIVERY_MS : deliveryLag(done);
	// a delivery that can teach the service's zone reads the list whatever the lag (a minute apart);
	// the heartbeat keeps its own pace (a round woken by such a delivery comes sooner)
	if (
		(!teaches && now - entry.at <= lag) ||
		running.has(memoryKey) ||
		(!heartbeat && tried !== undefined && now - tried < RETRY_MS)
	) {
		return undefined;
	}
	running.add(memoryKey);
	lastAttempt.set(attemptKey, now);
	attempts.set(attemptKey, done + 1);
	const letGo = holdCopy(scope, staticData);
	return {
		kind: teaches ? 'zone' : 'calls',
		assistantId,
		scope,
		staticData,
		now,
		beatingSince,
		release: () => {
			running.delete(memoryKey);
			letGo();
		},
		untried: () => {
			attempts.set(attemptKey, done);
			if (tried === undefined) lastAttempt.delete(attemptKey);
			else lastAttempt.set(attemptKey, tried);
		},
	};
}
