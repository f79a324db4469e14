import type { IDataObject, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';

import { apiRequest, asList } from '../../VoiceChatAssistant/transport';
import { getClock } from '../../VoiceChatAssistant/transport/clock';
import {
	QUARTER_HOUR_MS,
	WIDEST_ZONE_MS,
	isZoneless,
	serviceTime,
} from '../../VoiceChatAssistant/transport/serviceTime';
import { CALL_EVENTS } from '../core/events';
import { processMap } from '../core/memory';
import type { TriggerEvent } from '../core/events';

/**
 * The catch-up's reading of the service's call list (catchUp.ts): the calls
 * of an assistant that ended since a watermark, and their times (the list's
 * `created_at` and `updated_at` carry no zone: the service's zone is learned
 * here, from a delivered call or from two reads). Which of them start:
 * catchUpSelect.ts.
 */

/**
 * A call ends at most this long after it was created (SPEC: max_duration is
 * 20 minutes at most; ringing and queueing come on top): the list is read back
 * to the calls created this long before the watermark.
 */
export const MAX_CALL_MS = 60 * 60_000;
/**
 * At most this many list requests per catch-up of a delivery (100 calls each): the service
 * waits for the delivery's answer meanwhile.
 */
export const MAX_PAGES = 10;
/**
 * At most this many list requests per heartbeat round (100 calls each): the calls since the
 * watermark are read whole up to 5,000 of them, so the oldest come first however long the outage.
 */
export const MAX_ROUND_PAGES = 50;
/**
 * At most this many calls one catch-up starts, the oldest first; the next round (or catch-up)
 * starts the next ones, the watermark kept before them.
 */
export const MAX_STARTS = 1_000;
export const PER_PAGE = 100;

const CALLS_PATH = '/api/user/calls';

export function callId(value: unknown): number | undefined {
	const id = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
	return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
}

/**
 * The offset of the list's zone-less times, learned from the delivered call
 * as the list shows it: its list `created_at` read as UTC, minus when it
 * really started (the payload's `created_at` when that names its zone, else
 * now minus its duration), rounded to a quarter hour.
 */
function learnZone(listed: IDataObject, payload: IDataObject, now: number): number | undefined {
	const local = serviceTime(listed.created_at, 0);
	if (local === undefined || !isZoneless(listed.created_at)) return undefined;
	// the payload's time counts only where it names its zone
	let started = serviceTime(payload.created_at);
	if (started === undefined) {
		const seconds = Number(payload.duration);
		started = now - (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0);
	}
	const minutes = Math.round((local - started) / QUARTER_HOUR_MS) * 15;
	return Math.abs(minutes) <= WIDEST_ZONE_MS / 60_000 ? minutes : undefined;
}

/** How far a call's listed times may lie outside the reads that bracket it (seconds cut, lag). */
const BRACKET_SLACK_MS = 60_000;

/**
 * The offset of the list's zone-less times (minutes), from the service's list and n8n's clock
 * alone. A call with an id above every id an earlier read listed was not listed then: it was
 * created (or, where the list shows only ended calls, ended) after that read was sent
 * (`sentBefore`), and created and ended before this read was answered (`answeredAt`). So its
 * `created_at` and its end (`created_at` plus `duration`), read as UTC, bracket the zone: a real
 * zone is a whole number of quarter hours, and when exactly one lies in the bracket (reads a few
 * minutes apart, a call of a few minutes), that is the zone. No delivery is needed, and no post
 * can name a time that moves it. It assumes the list shows a call within about ten minutes of its
 * end.
 */
export function zoneBetweenReads(
	calls: IDataObject[],
	previousMaxId: number,
	sentBefore: number,
	answeredAt: number,
): number | undefined {
	for (const call of calls) {
		const id = callId(call.id);
		const seconds = Number(call.duration ?? 0);
		if (id === undefined || id <= previousMaxId || !zoneless(call)) continue;
		if (!Number.isFinite(seconds) || seconds < 0) continue;
		const created = serviceTime(call.created_at, 0) as number;
		const ended = created + seconds * 1000;
		const first = Math.ceil((created - answeredAt - BRACKET_SLACK_MS) / QUARTER_HOUR_MS);
		const last = Math.floor((ended - sentBefore + BRACKET_SLACK_MS) / QUARTER_HOUR_MS);
		if (first !== last) continue;
		const zoneMs = first * QUARTER_HOUR_MS;
		// it ended before this read was answered
		if (ended - zoneMs > answeredAt + BRACKET_SLACK_MS) continue;
		// (+ 0: never -0)
		if (Math.abs(zoneMs) <= WIDEST_ZONE_MS) return zoneMs / 60_000 + 0;
	}
	return undefined;
}

/**
 * The last read of each assistant's list while the service's zone is unknown, per trigger and
 * assistant: when it was sent and the highest call id it listed (zoneFromReads).
 */
const zoneProbes = processMap<string, { sentBefore: number; maxId: number }>();

/**
 * The service's zone from two reads of the list (zoneBetweenReads): this one, sent at `sentAt`
 * and answered `answeredAt`, and the previous one of this process (`key`: the trigger and the
 * assistant); this read is noted for the next.
 */
function zoneFromReads(
	key: string,
	calls: IDataObject[],
	sentAt: number,
	answeredAt: number,
): number | undefined {
	const previous = zoneProbes.get(key);
	const maxId = Math.max(maxCallId(calls) ?? 0, previous?.maxId ?? 0);
	zoneProbes.set(key, { sentBefore: sentAt, maxId });
	if (!previous) return undefined;
	return zoneBetweenReads(calls, previous.maxId, previous.sentBefore, answeredAt);
}

/** The highest call id of a list read (undefined for none). */
function maxCallId(calls: IDataObject[]): number | undefined {
	let max: number | undefined;
	for (const call of calls) {
		const id = callId(call.id);
		if (id !== undefined && (max === undefined || id > max)) max = id;
	}
	return max;
}

/** Whether the list's times name no zone (then the zone must be known to read them). */
function zoneless(call: IDataObject): boolean {
	return isZoneless(call.created_at);
}

/** A listed call with its id and times read once, in the service's zone (listedCalls). */
export interface Listed {
	call: IDataObject;
	id: number | undefined;
	/** Its `created_at` and `updated_at` as instants, where readable. */
	created: number | undefined;
	updated: number | undefined;
	/** When it ended: its `updated_at`, else its start plus its duration. */
	ended: number | undefined;
}

/** The listed calls with their ids and times read once, in the service's zone, `zoneMs` ahead of UTC. */
function listedCalls(calls: IDataObject[], zoneMs: number): Listed[] {
	return calls.map((call) => {
		const created = serviceTime(call.created_at, zoneMs);
		const updated = serviceTime(call.updated_at, zoneMs);
		const seconds = Number(call.duration);
		const lasted = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
		const ended = updated ?? (created === undefined ? undefined : created + lasted);
		return { call, id: callId(call.id), created, updated, ended };
	});
}

/** One read of an assistant's list (readCalls). */
export interface CallsRead {
	calls: IDataObject[];
	/** Whether the list was read back to the calls created before the window. */
	complete: boolean;
	/** The service's zone learned from the delivered call as the list shows it (`teaching`). */
	learned?: number;
	/** The service's zone: the learned one, else the known one, else one from two reads (`probeKey`). */
	zone?: number;
	/** The calls with their times read in that zone; undefined while a zone-less list has none. */
	listed?: Listed[];
}

/** What one read of an assistant's list is about (readCalls). */
export interface CallsWanted {
	event: TriggerEvent;
	assistantId: number;
	/** Calls created before this are not read (the list is read newest first). */
	since: number;
	/** The delivered call, when it may teach the zone (a verified delivery; a forged one could name any time). */
	teaching?: IDataObject;
	/** The zone known now (asked before the read and again after it, as another request may learn it meanwhile). */
	knownZone: () => number | undefined;
	/** When the read began (n8n's clock). */
	now: number;
	pages: number;
	/** Where the read is noted for the zone from two reads (zoneFromReads); none: not noted. */
	probeKey?: string;
}

/**
 * Reads the assistant's calls newest first until the ones created before `since`, and the
 * service's zone: learned from the delivered call, else the known one, else from this read and
 * the previous one (zoneFromReads); the calls are read in it once it is known.
 */
export async function readCalls(
	ctx: IWebhookFunctions | ITriggerFunctions,
	wanted: CallsWanted,
): Promise<CallsRead> {
	const { calls, complete, learned } = await readGap(ctx, wanted);
	let zone = learned ?? wanted.knownZone();
	const zoneLess = calls.some(zoneless);
	if (zone === undefined && zoneLess && wanted.probeKey !== undefined) {
		zone = zoneFromReads(wanted.probeKey, calls, wanted.now, getClock().now());
	}
	const listed =
		zone === undefined && zoneLess ? undefined : listedCalls(calls, (zone ?? 0) * 60_000);
	return { calls, complete, learned, zone, listed };
}

/** The list pages newest first until the calls created before `since`, and the zone `teaching` shows. */
async function readGap(
	ctx: IWebhookFunctions | ITriggerFunctions,
	{ event, assistantId, since, teaching, knownZone, now, pages }: CallsWanted,
): Promise<{ calls: IDataObject[]; complete: boolean; learned?: number }> {
	const qs: IDataObject = {
		assistant_id: assistantId,
		// the service's date, whatever its zone: a day boundary earlier costs nothing
		date_from: new Date(since - WIDEST_ZONE_MS).toISOString().slice(0, 10),
	};
	const { callType } = CALL_EVENTS[event];
	if (callType) qs.type = callType;
	const deliveredId = teaching ? callId(teaching.id) : undefined;
	const storedZone = knownZone();
	const calls: IDataObject[] = [];
	let learned: number | undefined;
	for (let page = 1; page <= pages; page++) {
		const answer = (await apiRequest.call(ctx, 'GET', CALLS_PATH, {
			qs: { ...qs, per_page: PER_PAGE, page },
		})) as IDataObject;
		const items = asList(answer);
		calls.push(...items);
		if (learned === undefined && teaching && deliveredId !== undefined) {
			const listed = items.find((call) => callId(call.id) === deliveredId);
			if (listed) learned = learnZone(listed, teaching, now);
		}
		const known = learned ?? storedZone;
		const reachedStart = items.some((call) => {
			const start = serviceTime(call.created_at, (known ?? 0) * 60_000);
			// without a known zone, a zone-less list time may be up to 14 hours off
			const slack = known === undefined && zoneless(call) ? WIDEST_ZONE_MS : 0;
			return start !== undefined && start + slack < since;
		});
		const more =
			items.length > 0 &&
			('next_page_url' in answer ? Boolean(answer.next_page_url) : items.length >= PER_PAGE);
		if (reachedStart || !more) return { calls, complete: true, learned };
	}
	return { calls, complete: false, learned };
}
