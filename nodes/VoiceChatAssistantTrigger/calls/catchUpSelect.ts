import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FINAL_CALL_STATUSES } from '../../VoiceChatAssistant/descriptions';
import { isObject } from '../../VoiceChatAssistant/transport';
import { isoSeconds } from '../../VoiceChatAssistant/transport/serviceTime';
import { statusAllowed, toItem } from '../core/payload';
import { CALL_EVENTS } from '../core/events';
import type { TriggerEvent } from '../core/events';
import { MAX_STARTS } from './catchUpList';
import type { Listed } from './catchUpList';
import type { RecordingJob } from './catchUpRecordings';
import type { Registration } from './registration';

/**
 * The catch-up's decisions on the calls it listed (catchUpList.ts): which of
 * them a receiver answered already (the call's `webhook_response`, SPEC: "the
 * result of a webhook is recorded in the call field webhook_response"), whether
 * another n8n process is catching up the same gap, which calls start, and
 * each one's item. Pure: no request, no memory.
 */

/** Statuses the service sends no post-call webhook for with "Only Completed Calls". */
const UNSUCCESSFUL = ['failed', 'no-answer', 'busy'];

/**
 * A proxy's answer when it could not reach n8n behind it (a load balancer in
 * front of n8n's webhook processes while one of them restarts): 502 and 503
 * pages, as nginx, Traefik, Envoy and cloud balancers word them. A gateway
 * timeout (504) is not among them: n8n may have received the call.
 */
const GATEWAY_ERROR =
	/^\s*(?:<[^>]*>\s*)*(?:(?:502|503)\s*)?(?:Bad Gateway|Service (?:Temporarily )?Unavailable|no healthy upstream|upstream connect error[^<]*)\s*(?:<|$)/i;

/** The service recorded no answer (yet): null, absent, '' or {}. */
function nothingRecorded(response: unknown): boolean {
	if (response === null || response === undefined || response === '') return true;
	return isObject(response) && Object.keys(response).length === 0;
}

/**
 * The answer of this trigger to a test delivery ("Listen for test event": `{"received": true,
 * "test_listener": true}`, as it is or wrapped with its status): the call reached a test run, no
 * production workflow.
 */
function testListener(response: unknown): boolean {
	if (typeof response === 'string') return /"test_listener"\s*:\s*true/.test(response);
	if (!isObject(response)) return false;
	return (
		response.test_listener === true ||
		(isObject(response.body) && response.body.test_listener === true)
	);
}

/**
 * A delivery that reached no receiver, in the words a service or an HTTP
 * client records for it: refused, reset, not found, timed out.
 */
const CONNECTION_ERROR =
	/\b(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ETIMEDOUT|ESOCKETTIMEDOUT|socket hang up|connection (?:refused|reset)|could not connect|timed? ?out)\b/i;

/** An HTTP status recorded beside an answer (`{status: 502, body: ...}` and its spellings), if any. */
function recordedStatus(response: IDataObject): number | undefined {
	for (const key of ['status', 'status_code', 'statusCode', 'http_status', 'http_code']) {
		const value = response[key];
		const status = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
		if (typeof status === 'number' && status >= 100 && status <= 599) return status;
	}
	return undefined;
}

/** Whether a recorded answer (or its `body`/`message`) is a refusal or a proxy's page: no delivery. */
function refusal(status: number | undefined, text: string): boolean {
	// this trigger's 401 and 400, n8n's "not registered" 404, a proxy's 502 and 503 (a 500 and a 504
	// may come after n8n started the workflow: they count as answered)
	if (status !== undefined) return [400, 401, 403, 404, 502, 503].includes(status);
	return GATEWAY_ERROR.test(text) || /is not registered/i.test(text);
}

const textOf = (value: unknown): string =>
	typeof value === 'string'
		? value
		: isObject(value) && typeof value.message === 'string'
			? value.message
			: '';

/**
 * Whether a receiver answered the call's webhook, as the service recorded it
 * (`webhook_response`, whose shape SPEC does not show): empty (null, absent,
 * {}) when nothing answered; a failure to connect (`{"error": "connect
 * ECONNREFUSED ..."}`, a timeout), a refusal (this trigger's 401 or 400,
 * n8n's "not registered" 404) or a proxy's "Bad Gateway" (GATEWAY_ERROR), be
 * it the answer itself or wrapped with its status (`{status: 502, body:
 * ...}`), is no delivery either. Anything else, this trigger's `{received:
 * true}` or a workflow's own answer, means the call reached a workflow.
 */
export function answeredByReceiver(call: IDataObject): boolean {
	const response = call.webhook_response;
	if (nothingRecorded(response) || testListener(response)) return false;
	if (typeof response === 'string')
		return !GATEWAY_ERROR.test(response) && !CONNECTION_ERROR.test(response);
	if (!isObject(response)) return true;
	if (response.received !== undefined) return true;
	// a failure recorded in place of an answer: {error: "connect ECONNREFUSED ..."} with no status (a
	// workflow's own answer with an `error` field of other words still counts as answered)
	const status = recordedStatus(response);
	if (status === undefined && CONNECTION_ERROR.test(textOf(response.error))) return false;
	// wrapped with its status: {status, body}
	if ('body' in response && status !== undefined) {
		if (isObject(response.body) && response.body.received !== undefined) return true;
		return !refusal(status, textOf(response.body));
	}
	const message = textOf(response);
	if (GATEWAY_ERROR.test(message) || CONNECTION_ERROR.test(message)) return false;
	if (response.code === 404 || status === 404 || /is not registered/i.test(message)) return false;
	if (/^(Unauthorized|Bad request)/i.test(message)) return false;
	return true;
}

/**
 * The listed calls to start: final, ended in [since, until], passing the
 * trigger's filters, not answered by a receiver and not in `skip`; oldest first.
 */
function selectCalls(
	calls: Listed[],
	filters: { event: TriggerEvent; options: IDataObject; registration?: Registration },
	since: number,
	until: number,
	skip: (id: number) => boolean,
): Listed[] {
	const { event, options, registration } = filters;
	const { callType, postCallSettings } = CALL_EVENTS[event];
	const onlyCompleted =
		postCallSettings &&
		(registration?.settings?.send_webhook_only_on_completed ??
			options.onlyCompletedCalls !== false);
	const byId = new Map<number, Listed>();
	for (const listed of calls) {
		const { call, id, ended } = listed;
		if (id === undefined || byId.has(id)) continue;
		const status = String(call.status ?? '').toLowerCase();
		if (!FINAL_CALL_STATUSES.includes(status)) continue;
		if (callType && call.type !== undefined && call.type !== callType) continue;
		if (onlyCompleted && UNSUCCESSFUL.includes(status)) continue;
		if (!statusAllowed({ status: call.status }, options.callStatuses)) continue;
		// ended before the watermark (or before this trigger was activated), or too recently
		if (ended === undefined || ended < since || ended > until) continue;
		if (answeredByReceiver(call) || skip(id)) continue;
		byId.set(id, listed);
	}
	return [...byId.entries()].sort(([a], [b]) => a - b).map(([, listed]) => listed);
}

/**
 * A call that ended this recently and whose answer the service has not
 * recorded yet may be a delivery under way in another n8n process (n8n's
 * webhook processes in queue mode).
 */
export const ELSEWHERE_MS = 30_000;

/**
 * A delivery that may be catching up in another process right now: a listed
 * call (not the delivered one, not one this process received) that ended in
 * the last ELSEWHERE_MS, before the delivered call (in the same second: with
 * a lower id), and whose `webhook_response` is still empty. The process of
 * the earliest such delivery catches up, the others leave it to that one:
 * two processes do not catch up the same gap at once.
 */
function deliveryElsewhere(
	calls: Listed[],
	deliveredId: number,
	now: number,
	receivedHere: (id: number) => boolean,
): IDataObject | undefined {
	const mine = calls.find((listed) => listed.id === deliveredId)?.ended ?? now;
	return calls.find(({ call, id, ended }) => {
		if (id === undefined || id === deliveredId || receivedHere(id)) return false;
		if (
			!nothingRecorded(call.webhook_response) ||
			!FINAL_CALL_STATUSES.includes(String(call.status ?? '').toLowerCase())
		)
			return false;
		if (ended === undefined || ended < now - ELSEWHERE_MS || ended > mine) return false;
		return ended < mine || id < deliveredId;
	})?.call;
}

/**
 * The heartbeat waits this long after a call that reached this trigger through
 * another process: that process's deliveries catch up meanwhile.
 */
export const QUIET_ELSEWHERE_MS = 5 * 60_000;

/**
 * A listed call answered by this trigger in another n8n process (not one this
 * process received) that ended since `since` (when this process's heartbeat
 * began) and in the last QUIET_ELSEWHERE_MS: the deliveries go to another
 * process, which catches up with its next one.
 */
function answeredElsewhere(
	calls: Listed[],
	now: number,
	since: number,
	receivedHere: (id: number) => boolean,
): IDataObject | undefined {
	return calls.find(({ call, id, ended }) => {
		if (id === undefined || receivedHere(id) || !answeredByReceiver(call)) return false;
		return ended !== undefined && ended >= since && ended >= now - QUIET_ELSEWHERE_MS;
	})?.call;
}

/** A call of the list in the shape of a delivered payload (docs/api.md, section 4). */
function asPayload(listed: Listed, withRecording: boolean): IDataObject {
	const { call, created, updated: finished } = listed;
	const payload: IDataObject = {
		id: call.id,
		customer_phone: call.client_phone_number ?? null,
		assistant_phone: call.assistant_phone_number ?? null,
		duration: call.duration,
		status: call.status,
		extracted_variables: call.variables ?? null,
		// the call list does not show the variables a call was started with
		input_variables: null,
		transcript: call.transcript,
	};
	if (withRecording && call.recording_url !== undefined && call.recording_url !== null) {
		payload.recording_url = call.recording_url;
	}
	payload.created_at = created === undefined ? (call.created_at ?? null) : isoSeconds(created);
	payload.finished_at = finished === undefined ? (call.updated_at ?? null) : isoSeconds(finished);
	// the list names a call's campaign but does not show its lead
	payload.lead = null;
	payload.campaign =
		typeof call.campaign_name === 'string' && call.campaign_name
			? { name: call.campaign_name }
			: null;
	return payload;
}

/** What webhook() knows about the delivered call. */
export interface Delivered {
	event: TriggerEvent;
	assistantId: number | string | null;
	payload: IDataObject;
	registration?: Registration;
	/** The node's Options collection. */
	options: IDataObject;
	/** Whether the delivery carried the assistant's secret (else its data teaches nothing). */
	verified: boolean;
}

/**
 * A listed call as an item, without its recording (`recording_url` is in the
 * item only when the delivered payload would carry it), and, with Download
 * Recording on, the recording to download afterwards (catchUpRecordings.ts)
 * from the list's address, also when Include Recording is off (as a
 * delivered call's is).
 */
export function toCaughtUp(
	listed: Listed,
	delivered: Delivered,
	assistantId: number,
): { id: number; item: INodeExecutionData; recording?: RecordingJob } {
	const withRecording =
		!CALL_EVENTS[delivered.event].postCallSettings ||
		(delivered.registration?.settings?.include_recording_in_webhook ??
			delivered.options.includeRecording !== false);
	const payload = asPayload(listed, withRecording);
	const item = { json: { ...toItem(payload, delivered.event, assistantId), caught_up: true } };
	// Download Recording on: from the list's address
	const url = listed.call.recording_url;
	const download = delivered.options.downloadRecording === true && typeof url === 'string' && url;
	const id = listed.id as number;
	return { id, item, recording: download ? { item, url, callId: id } : undefined };
}

/** A listed call to start: its item and, with Download Recording on, its recording (toCaughtUp). */
export type CaughtUp = ReturnType<typeof toCaughtUp>;

/** What a catch-up decides on the calls it listed (planStarts). */
export type Starts =
	/** Another process catches up this gap: the call that shows it, and whose deliveries they are. */
	| { elsewhere: IDataObject; through: 'delivery' | 'deliveries' }
	/** The calls to start (oldest first, at most MAX_STARTS), and the calls left for the next catch-up. */
	| { start: CaughtUp[]; later: Listed[] };

/**
 * The catch-up's decision on the calls it listed: whether another n8n process catches up this gap
 * (a delivery of a call that ended just before the delivered one, or, for the heartbeat, calls
 * that reached this trigger through another process lately), else which calls start: those
 * selectCalls takes that this process has not received (`here`), oldest first.
 */
export function planStarts(
	listed: Listed[],
	delivered: Delivered,
	at: {
		assistantId: number;
		/** The watermark, and the end of the calls left to their own delivery. */
		since: number;
		until: number;
		now: number;
		/** The delivered call (a verified delivery), or undefined for the heartbeat. */
		deliveredId: number | undefined;
		/** When the heartbeat began in this process (the heartbeat's rounds only). */
		beatingSince: number | undefined;
		/** Calls started already (the catch-up's memory). */
		remembered: Set<number>;
		/** Whether this process received the call or is building its delivery. */
		here: (id: number) => boolean;
	},
): Starts {
	const { assistantId, since, until, now, deliveredId, beatingSince, remembered, here } = at;
	const other = deliveredId && deliveryElsewhere(listed, deliveredId, now, here);
	if (other) return { elsewhere: other, through: 'delivery' };
	// the heartbeat leaves the gap to the deliveries of another process (n8n's webhook processes),
	// which catch up with the next call: it takes over once they have been quiet a while
	const busy =
		deliveredId === undefined && beatingSince !== undefined
			? answeredElsewhere(listed, now, beatingSince, here)
			: undefined;
	if (busy) return { elsewhere: busy, through: 'deliveries' };
	const selected = selectCalls(
		listed,
		delivered,
		since,
		until,
		(id) => id === deliveredId || remembered.has(id),
	);
	// the oldest MAX_STARTS (their items built, without recordings); the watermark stays before the
	// first call left for the next catch-up; a call started already, or whose delivery is being
	// built, starts nothing
	const start = selected
		.slice(0, MAX_STARTS)
		.map((call) => toCaughtUp(call, delivered, assistantId))
		.filter(({ id }) => !here(id));
	return { start, later: selected.slice(MAX_STARTS) };
}
