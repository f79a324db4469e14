/**
 * What the catch-up test files (catchUpReach, catchUpSelection, catchUpOnce,
 * catchUpRestarts, catchUpLifecycle, catchUpRecordings) and the heartbeat's
 * share: the registered trigger whose deliveries catch up, the delivered call,
 * the list requests they expect and the items they compare with. Every test
 * asserts the exact requests sent.
 */
import nock from 'nock';
import { heartbeatsEnded } from '../../../nodes/VoiceChatAssistantTrigger/calls/heartbeat';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import type { Clock } from '../../../nodes/VoiceChatAssistant/transport/clock';
import { setClock } from '../../../nodes/VoiceChatAssistant/transport/clock';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { registeredTrigger, trigger } from '../../helpers/registeredTrigger';
import {
	CALLS,
	DELIVERED,
	DELIVERED_ID,
	DELIVERED_START,
	DOWN_AT,
	MINUTE,
	NOW,
	URL_PARAM,
	listCall,
	listPages,
} from './catchUpFixtures';

/** n8n restarted, or another process: nothing of this process's memory (catch-ups, deliveries received). */
export function restartProcess() {
	forgetProcess();
}

/** For a test file: the fake clock at NOW, and the process's memory of replays and catch-ups forgotten before each test. */
export function catchUpPerTest() {
	const clock = fakeClockPerTest(NOW);
	beforeEach(restartProcess);
	return clock;
}

/**
 * For a heartbeat test file: before each test no network but nock's, the rate limiters and the
 * process's memory forgotten, and n8n's clock `clock()`; after it the real clock back and nock's
 * interceptors removed.
 */
export function heartbeatClockPerTest(clock: () => Clock) {
	let restore: () => void;
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
		restartProcess();
		restore = setClock(clock());
	});
	afterEach(async () => {
		// a closed heartbeat ends after its round: no round of this test writes into the next one
		await heartbeatsEnded();
		restore();
		nock.cleanAll();
	});
}

/** The trigger's execute() in a run of `mode` over `items`, with `hook`'s parameters and static data: its output. */
export async function execute(
	hook: { context: IHookFunctions },
	mode: string,
	items: INodeExecutionData[],
) {
	const context = {
		...hook.context,
		getMode: () => mode,
		getInputData: () => items,
		getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
			hook.context.getNodeParameter(name, fallback),
	} as unknown as IExecuteFunctions;
	return await trigger.execute.call(context);
}

/** The registration's static data; assistant 34 watermarked at DOWN_AT, the service's zone known (UTC+1) unless `zone` is null. */
export function watermarked(
	registration: { staticData(): IDataObject },
	zone: number | null = 60,
): IDataObject {
	const data = registration.staticData();
	const catchUp: IDataObject = { assistants: { '34': { at: DOWN_AT, recent: [] } } };
	if (zone !== null) catchUp.zone = zone;
	data.catchUp = catchUp;
	return data;
}

/**
 * For a test file: catchUpPerTest()'s clock; the service's call list, whose pages (newest first)
 * the file's tests set in `list.pages`; and `expectList(pageNumber, event?)`, the list request of
 * that page, answered from `list.pages` when the request comes.
 */
export function useCatchUpList() {
	const clock = catchUpPerTest();
	const list = { pages: [] as IDataObject[] };
	const expectList = expectListOf(() => list.pages);
	/** `calls` listed (newest first), and the list request of the first page expected. */
	const listAll = (calls: IDataObject[], event?: string) => {
		list.pages = listPages(calls);
		return expectList(1, event);
	};
	/** The delivered call, `calls` and BEFORE listed, and the list request of the first page expected. */
	const listed = (calls: IDataObject[], event?: string) =>
		listAll([DELIVERED_LISTED, ...calls, BEFORE], event);
	return { clock, list, expectList, listAll, listed };
}

export function iso(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The item a caught-up list call becomes: the delivered payload's shape plus `caught_up`. */
export function caughtUpItem(
	call: IDataObject,
	startedMs: number,
	event = 'inboundCallCompleted',
): IDataObject {
	return {
		event,
		assistant_id: 34,
		id: call.id,
		customer_phone: call.client_phone_number,
		assistant_phone: call.assistant_phone_number,
		duration: call.duration,
		status: call.status,
		extracted_variables: call.variables,
		input_variables: null,
		transcript: call.transcript,
		recording_url: call.recording_url,
		created_at: iso(startedMs),
		finished_at: iso(startedMs + MINUTE),
		lead: null,
		campaign: null,
		transcript_text: call.transcript,
		caught_up: true,
	};
}

export const PAYLOAD = {
	...DELIVERED,
	extracted_variables: { customer_name: 'Jane Doe' },
	input_variables: { customer_name: 'Jane' },
	transcript: 'bot: Hello\nhuman: I would like an appointment.',
	recording_url: `https://cdn.example.com/recordings/${DELIVERED_ID}.mp3`,
	created_at: iso(DELIVERED_START),
	finished_at: iso(DELIVERED_START + 73_000),
	lead: null,
	campaign: null,
};
export const DELIVERED_LISTED = listCall(DELIVERED_ID, DELIVERED_START, { duration: 73 });

/** The post of another call `id` like PAYLOAD, started at `startedMs`. */
export function posted(id: number, startedMs: number): IDataObject {
	return { ...PAYLOAD, id, created_at: iso(startedMs) };
}

/** Assistants 12 and 34 registered for Inbound Call Completed (one secret); a delivery from 34 of PAYLOAD. */
export const registered = registeredTrigger({
	secrets: { 12: URL_PARAM, 34: URL_PARAM },
	payload: PAYLOAD,
	loaded: () => staticData(),
});
export const { deliver, parameters } = registered;

/** The registration, and assistant 34's catch-up state: its watermark and the calls it started last. */
export function staticData(
	event = 'inboundCallCompleted',
	recent: Array<[number, number]> = [],
	watermark: number | null = DOWN_AT,
): IDataObject {
	const data = registered.staticData(event);
	if (watermark !== null) data.catchUp = { assistants: { '34': { at: watermark, recent } } };
	return data;
}

/** The list request catch-up sends (watermark 10:00 UTC: from 20 minutes before, 14 hours earlier as a date). */
export function listQuery(
	pageNumber: number,
	event = 'inboundCallCompleted',
): Record<string, string> {
	const query: Record<string, string> = { assistant_id: '34', date_from: '2026-11-25' };
	if (event === 'inboundCallCompleted') query.type = 'inbound';
	return { ...query, per_page: '100', page: String(pageNumber) };
}

/**
 * `expectList(pageNumber, event?)` of a test file: the list request of that page, answered with
 * the page of `pages()` at the time the request comes (the file's `pages`, which its tests set).
 */
export function expectListOf(pages: () => IDataObject[]) {
	return function expectList(pageNumber: number, event?: string) {
		return nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get(CALLS)
			.query(listQuery(pageNumber, event))
			.reply(200, () => pages()[pageNumber - 1]);
	};
}

export function requests(sent: IHttpRequestOptions[]): string[] {
	// the query as it goes on the wire (every value as text)
	return sent.map(
		(r) =>
			`${r.method} ${r.url} ${JSON.stringify(
				Object.fromEntries(Object.entries(r.qs ?? {}).map(([k, v]) => [k, String(v)])),
			)}`,
	);
}

/** `count` calls that started during the downtime, one every 3 minutes from 10:01 UTC (ids from 9001). */
export function gapCalls(
	count: number,
	step = 3 * MINUTE,
): Array<{ call: IDataObject; started: number }> {
	return Array.from({ length: count }, (_, i) => {
		const started = DOWN_AT + MINUTE + i * step;
		return { call: listCall(9001 + i, started), started };
	});
}

/** A call that started before the window (30 minutes before the watermark): where reading stops. */
export const BEFORE = listCall(8990, DOWN_AT - 30 * MINUTE);

/** A list whose calls the service answered for: their webhook_response holds the trigger's answer. */
export function answered(call: IDataObject): IDataObject {
	return { ...call, webhook_response: { received: true } };
}
