import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { FINAL_CALL_STATUSES } from '../VoiceChatAssistant/descriptions';
import { apiRequest, asList, isObject } from '../VoiceChatAssistant/transport';
import { getClock } from '../VoiceChatAssistant/transport/clock';
import { downloadRecording } from '../VoiceChatAssistant/transport/recording';
import { statusAllowed, toItem } from './payload';
import { INBOUND, POST_CALL } from './registration';
import type { Registration, TriggerEvent } from './registration';
import { deliveryKey, inFlight, remember, seen } from './replays';

/**
 * Catching up after downtime. The service posts each ended call once and
 * retries only after 30, 60 and 120 s, so a call that ended while n8n could
 * not receive (an update, a restart, a crash, a network outage) is never
 * delivered. The trigger therefore keeps, per assistant, a watermark (when it
 * last knew it had every call) and the calls it started within the hour
 * before; when a delivery arrives after this process had none for the
 * assistant for longer than the service's retries span, it reads the
 * assistant's calls since the watermark and starts the ones that ended
 * meanwhile, oldest first, before the delivered one.
 *
 * The state lives in the node's static data, which n8n loads with the
 * workflow for every webhook request and saves after webhook() returns.
 */

/** Key of the catch-up state in the node's static data. */
export const CATCH_UP_KEY = 'catchUp';

/**
 * A gap between two deliveries this short cannot hide a lost call: a call
 * that ended during an outage shorter than the service's retries (30 + 60 +
 * 120 s) reaches n8n with a retry.
 */
export const QUIET_MS = 3 * 60_000;
/** Calls last 20 minutes at most: a call that ended after the watermark started at most this long before it. */
export const MAX_CALL_MS = 20 * 60_000;
/** Calls started by the trigger are remembered this long before the watermark. */
export const REMEMBER_MS = 60 * 60_000;
/** At most this many remembered calls per assistant. */
export const MAX_REMEMBERED = 1_000;
/**
 * A call that ended this recently is left to its own delivery, which the
 * service sends the moment the call ends: calls that end together stay one
 * execution each. If that delivery is lost, the next catch-up starts it (the
 * watermark stays before its end).
 */
export const LEFT_TO_DELIVERY_MS = 60_000;
/** At most this many list requests per catch-up (100 calls each). */
export const MAX_PAGES = 10;
export const PER_PAGE = 100;

const CALLS_PATH = '/api/user/calls';
/** Statuses the service sends no post-call webhook for with "Only Completed Calls". */
const UNSUCCESSFUL = ['failed', 'no-answer', 'busy'];
/** The widest offset of a time zone from UTC. */
const WIDEST_ZONE_MS = 14 * 60 * 60_000;
const QUARTER_HOUR_MS = 15 * 60_000;
const LOG = 'Voice Chat Assistant Trigger:';

interface AssistantState {
	/** Watermark (epoch ms): every call that ended before it was started or given up. */
	at: number;
	/** Calls started by the trigger: [call id, when (epoch ms)]. */
	recent: Array<[number, number]>;
}

interface CatchUpState {
	/**
	 * Offset of the service's call-list times from UTC in minutes, learned
	 * from a delivered call (the list's `created_at` carries no time zone).
	 */
	zone?: number;
	assistants: Record<string, AssistantState>;
}

/** When this process last received a delivery, per trigger and assistant (epoch ms). */
const lastDelivery = new Map<string, number>();

/** Forgets the deliveries this process received, as a restart does (tests only). */
export function resetCatchUpMemory() {
	lastDelivery.clear();
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

/** Stores the state as a new object, so n8n notices the change and saves it. */
function writeState(staticData: IDataObject, state: CatchUpState) {
	const stored: IDataObject = {
		assistants: Object.fromEntries(
			Object.entries(state.assistants).map(([id, entry]) => [
				id,
				{ at: entry.at, recent: entry.recent.map(([callId, at]) => [callId, at]) },
			]),
		),
	};
	if (state.zone !== undefined) stored.zone = state.zone;
	staticData[CATCH_UP_KEY] = stored;
}

/**
 * Starts the watermark of every watched assistant that has none (at
 * activation): calls that end from now on are caught up if they are missed.
 * Assistants no longer watched are dropped. Test webhooks keep no state.
 */
export function startCatchUp(ctx: IHookFunctions, assistantIds: number[]): void {
	if (ctx.getMode() === 'manual') return;
	const staticData = ctx.getWorkflowStaticData('node');
	const state = readState(staticData);
	const now = getClock().now();
	const assistants: Record<string, AssistantState> = {};
	for (const id of assistantIds) {
		assistants[String(id)] = state.assistants[String(id)] ?? { at: now, recent: [] };
	}
	writeState(staticData, { ...state, assistants });
}

/** Forgets the catch-up state (at deactivation: calls that end afterwards are not this trigger's). */
export function clearCatchUp(ctx: IHookFunctions): void {
	if (ctx.getMode() === 'manual') return;
	const staticData = ctx.getWorkflowStaticData('node');
	if (CATCH_UP_KEY in staticData) delete staticData[CATCH_UP_KEY];
}

/** What webhook() knows about the delivered call. */
export interface Delivered {
	event: TriggerEvent;
	assistantId: number | string | null;
	payload: IDataObject;
	registration?: Registration;
	/** The node's Options collection. */
	options: IDataObject;
}

function callId(value: unknown): number | undefined {
	const id = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
	return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
}

const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?$/;
const WITH_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A time of the service as epoch ms. A time without a zone (the call list's
 * `YYYY-MM-DD HH:MM:SS`) is in the service's zone, `zoneMs` ahead of UTC.
 */
function serviceTime(value: unknown, zoneMs: number): number | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const zoneless = ZONELESS.exec(text);
	if (zoneless) return Date.parse(`${zoneless[1]}T${zoneless[2]}Z`) - zoneMs;
	if (!WITH_ZONE.test(text)) return undefined;
	const time = Date.parse(text);
	return Number.isNaN(time) ? undefined : time;
}

function isoSeconds(time: number): string {
	return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The offset of the list's zone-less times, learned from the delivered call
 * as the list shows it: its list `created_at` read as UTC, minus when it
 * really started (the payload's `created_at` when that names its zone, else
 * now minus its duration), rounded to a quarter hour.
 */
function learnZone(listed: IDataObject, payload: IDataObject, now: number): number | undefined {
	const local = serviceTime(listed.created_at, 0);
	if (local === undefined || !ZONELESS.test(String(listed.created_at).trim())) return undefined;
	let started: number | undefined;
	if (typeof payload.created_at === 'string' && WITH_ZONE.test(payload.created_at.trim())) {
		started = serviceTime(payload.created_at, 0);
	}
	if (started === undefined) {
		const seconds = Number(payload.duration);
		started = now - (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0);
	}
	const minutes = Math.round((local - started) / QUARTER_HOUR_MS) * 15;
	return Math.abs(minutes) <= WIDEST_ZONE_MS / 60_000 ? minutes : undefined;
}

/** A call of the list in the shape of a delivered payload (docs/api.md, section 4). */
function asPayload(call: IDataObject, zoneMs: number, withRecording: boolean): IDataObject {
	const created = serviceTime(call.created_at, zoneMs);
	const finished = serviceTime(call.updated_at, zoneMs);
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

interface Gap {
	calls: IDataObject[];
	/** Whether the list was read back to the calls that started before the window. */
	complete: boolean;
	zone?: number;
}

/** Reads the assistant's calls newest first until the ones that started before `since`. */
async function readGap(
	ctx: IWebhookFunctions,
	event: TriggerEvent,
	assistantId: number,
	since: number,
	delivered: IDataObject,
	storedZone: number | undefined,
	now: number,
): Promise<Gap> {
	const qs: IDataObject = {
		assistant_id: assistantId,
		// the service's date, whatever its zone: a day boundary earlier costs nothing
		date_from: new Date(since - WIDEST_ZONE_MS).toISOString().slice(0, 10),
	};
	if (event === INBOUND) qs.type = 'inbound';
	const deliveredId = callId(delivered.id);
	const calls: IDataObject[] = [];
	let zone: number | undefined;
	for (let page = 1; page <= MAX_PAGES; page++) {
		const answer = (await apiRequest.call(ctx, 'GET', CALLS_PATH, {
			qs: { ...qs, per_page: PER_PAGE, page },
		})) as IDataObject;
		const items = asList(answer);
		calls.push(...items);
		if (zone === undefined && deliveredId !== undefined) {
			const listed = items.find((call) => callId(call.id) === deliveredId);
			if (listed) zone = learnZone(listed, delivered, now);
		}
		const known = zone ?? storedZone;
		const reachedStart = items.some((call) => {
			const start = serviceTime(call.created_at, (known ?? 0) * 60_000);
			// without a known zone, a zone-less list time may be up to 14 hours off
			const slack =
				known === undefined && ZONELESS.test(String(call.created_at).trim()) ? WIDEST_ZONE_MS : 0;
			return start !== undefined && start + slack < since;
		});
		const more =
			items.length > 0 &&
			('next_page_url' in answer ? Boolean(answer.next_page_url) : items.length >= PER_PAGE);
		if (reachedStart || !more) return { calls, complete: true, zone };
	}
	return { calls, complete: false, zone };
}

/**
 * The items one delivery starts: the delivered call's item and, before it,
 * the calls that ended while n8n could not receive (oldest first, marked
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
 * For a production delivery of a call: the calls that ended while n8n could
 * not receive, as items (oldest first, marked `caught_up`), and the state
 * moved on. A failed catch-up starts nothing extra, is logged, and leaves the
 * watermark where it was, so the next delivery tries again.
 */
export async function catchUp(
	ctx: IWebhookFunctions,
	delivered: Delivered,
): Promise<INodeExecutionData[]> {
	const { event, payload } = delivered;
	// chats are not caught up; test deliveries never
	if (ctx.getMode() === 'manual' || (event !== INBOUND && event !== POST_CALL)) return [];
	const assistantId = typeof delivered.assistantId === 'number' ? delivered.assistantId : undefined;
	// only an assistant this trigger registered (its calls are the ones it may start)
	if (
		assistantId === undefined ||
		!delivered.registration?.assistants.some((entry) => entry.id === assistantId)
	) {
		return [];
	}
	const now = getClock().now();
	const scope = `${ctx.getWorkflow().id}|${ctx.getNode().id}`;
	const memoryKey = `${scope}|${assistantId}`;
	const previous = lastDelivery.get(memoryKey);
	lastDelivery.set(memoryKey, now);

	const staticData = ctx.getWorkflowStaticData('node');
	const state = readState(staticData);
	const deliveredId = callId(payload.id);
	let entry = state.assistants[String(assistantId)];
	const quiet = previous === undefined || now - previous > QUIET_MS;
	const items: INodeExecutionData[] = [];
	const caught: number[] = [];
	if (!entry) {
		// the first call since the trigger was set up: the watermark starts here
		entry = { at: now, recent: [] };
		state.assistants[String(assistantId)] = entry;
	} else if (quiet) {
		const since = entry.at - MAX_CALL_MS;
		let gap: Gap | undefined;
		try {
			gap = await readGap(ctx, event, assistantId, since, payload, state.zone, now);
		} catch (error) {
			// the delivered call still starts; the next delivery tries again from the same watermark
			lastDelivery.delete(memoryKey);
			ctx.logger.warn(
				`${LOG} could not catch up the calls of assistant ${assistantId} that ended since ${isoSeconds(entry.at)}: ${(error as Error).message}; the next call tries again`,
			);
		}
		if (gap) {
			if (gap.zone !== undefined) state.zone = gap.zone;
			const zoneMs = (state.zone ?? 0) * 60_000;
			const remembered = new Set(entry.recent.map(([id]) => id));
			const started: number[] = [];
			const toStart: IDataObject[] = [];
			const { calls: selected, leftUntil } = selectCalls(
				gap.calls,
				delivered,
				zoneMs,
				since,
				remembered,
				deliveredId,
				now,
			);
			for (const call of selected) {
				const id = callId(call.id) as number;
				caught.push(id);
				// a call this process started already, or whose delivery is being built right now
				const key = deliveryKey(scope, event, { id });
				if (key !== undefined && (seen(key) || inFlight(key))) continue;
				// remembered before any item is built (a caught-up item is always built, with
				// recording_error at worst): a delivery of the call arriving meanwhile starts nothing
				if (key !== undefined) remember(key);
				toStart.push(call);
				started.push(id);
			}
			for (const call of toStart) {
				items.push(await toCaughtUpItem(ctx, call, delivered, zoneMs, assistantId));
			}
			if (!gap.complete) {
				const oldest = gap.calls[gap.calls.length - 1];
				ctx.logger.warn(
					`${LOG} catching up assistant ${assistantId} read ${gap.calls.length} calls without reaching ${isoSeconds(entry.at)}; its calls that ended since then and are older than call ${String(oldest?.id)} (created ${String(oldest?.created_at)}) are not started`,
				);
			}
			if (started.length) {
				ctx.logger.info(
					`${LOG} caught up ${started.length} call(s) of assistant ${assistantId} that ended while n8n could not receive (ids ${started.join(', ')})`,
				);
			}
			// a call left to its own delivery keeps the watermark before its end
			entry.at = Math.min(now, leftUntil);
		}
	} else {
		entry.at = now;
	}
	for (const id of [...caught, ...(deliveredId === undefined ? [] : [deliveredId])]) {
		if (!entry.recent.some(([known]) => known === id)) entry.recent.push([id, now]);
	}
	entry.recent = entry.recent
		.filter(([, at]) => at >= entry.at - REMEMBER_MS)
		.slice(-MAX_REMEMBERED);
	writeState(staticData, state);
	return items;
}

/** The listed calls to start: ended, in the window, passing the filters, not started yet; oldest first. */
function selectCalls(
	calls: IDataObject[],
	delivered: Delivered,
	zoneMs: number,
	since: number,
	remembered: Set<number>,
	deliveredId: number | undefined,
	now: number,
): { calls: IDataObject[]; leftUntil: number } {
	const { event, options, registration } = delivered;
	const onlyCompleted =
		event === POST_CALL &&
		(registration?.settings?.send_webhook_only_on_completed ??
			options.onlyCompletedCalls !== false);
	const byId = new Map<number, IDataObject>();
	let leftUntil = Infinity;
	for (const call of calls) {
		const id = callId(call.id);
		if (id === undefined || id === deliveredId || remembered.has(id) || byId.has(id)) continue;
		const status = String(call.status ?? '').toLowerCase();
		if (!FINAL_CALL_STATUSES.includes(status)) continue;
		if (event === INBOUND && call.type !== undefined && call.type !== 'inbound') continue;
		if (onlyCompleted && UNSUCCESSFUL.includes(status)) continue;
		if (!statusAllowed({ status: call.status }, options.callStatuses)) continue;
		const started = serviceTime(call.created_at, zoneMs);
		if (started === undefined || started < since) continue;
		const seconds = Number(call.duration);
		const ended =
			serviceTime(call.updated_at, zoneMs) ??
			started + (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0);
		if (ended > now - LEFT_TO_DELIVERY_MS) {
			leftUntil = Math.min(leftUntil, ended - 1);
			continue;
		}
		byId.set(id, call);
	}
	return {
		calls: [...byId.entries()].sort(([a], [b]) => a - b).map(([, call]) => call),
		leftUntil,
	};
}

async function toCaughtUpItem(
	ctx: IWebhookFunctions,
	call: IDataObject,
	delivered: Delivered,
	zoneMs: number,
	assistantId: number,
): Promise<INodeExecutionData> {
	const withRecording =
		delivered.event !== POST_CALL ||
		(delivered.registration?.settings?.include_recording_in_webhook ??
			delivered.options.includeRecording !== false);
	const payload = asPayload(call, zoneMs, withRecording);
	const item: INodeExecutionData = {
		json: { ...toItem(payload, delivered.event, assistantId), caught_up: true },
	};
	if (delivered.options.downloadRecording === true && typeof payload.recording_url === 'string') {
		try {
			item.binary = { data: await downloadRecording(ctx, payload.recording_url, payload.id) };
		} catch (error) {
			const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
			item.json.recording_error = message;
			ctx.logger.warn(
				`${LOG} call ${String(payload.id)} goes on without its recording: ${message}`,
			);
		}
	}
	return item;
}
