/**
 * Catching up after downtime: a delivery that arrives after n8n could not
 * receive starts the calls that ended meanwhile (read from the call list),
 * oldest first and marked `caught_up`, then the delivered one. Every test
 * asserts the exact requests sent.
 */
import nock from 'nock';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import {
	deliveryKey,
	finish,
	resetReplays,
	start,
} from '../../../nodes/VoiceChatAssistantTrigger/core/replays';
import {
	MAX_PAGES,
	resetCatchUpMemory,
	startCatchUp,
} from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUp';
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
	listTime,
	page,
} from './catchUpFixtures';

const clock = fakeClockPerTest(NOW);

beforeEach(() => {
	resetReplays();
	resetCatchUpMemory();
});

function iso(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The item a caught-up list call becomes: the delivered payload's shape plus `caught_up`. */
function caughtUpItem(
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

const PAYLOAD = {
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
const DELIVERED_LISTED = listCall(DELIVERED_ID, DELIVERED_START, { duration: 73 });

/** Assistants 12 and 34 registered for Inbound Call Completed (one secret); a delivery from 34 of PAYLOAD. */
const registered = registeredTrigger({
	secrets: { 12: URL_PARAM, 34: URL_PARAM },
	payload: PAYLOAD,
	loaded: () => staticData(),
});
const { deliver, parameters } = registered;

/** The registration, and assistant 34's catch-up state: its watermark and the calls it started last. */
function staticData(
	event = 'inboundCallCompleted',
	recent: Array<[number, number]> = [],
	watermark: number | null = DOWN_AT,
): IDataObject {
	const data = registered.staticData(event);
	if (watermark !== null) data.catchUp = { assistants: { '34': { at: watermark, recent } } };
	return data;
}

/** The list request catch-up sends (watermark 10:00 UTC: from 20 minutes before, 14 hours earlier as a date). */
function listQuery(pageNumber: number, event = 'inboundCallCompleted'): Record<string, string> {
	const query: Record<string, string> = { assistant_id: '34', date_from: '2026-11-25' };
	if (event === 'inboundCallCompleted') query.type = 'inbound';
	return { ...query, per_page: '100', page: String(pageNumber) };
}

function expectList(pageNumber: number, event?: string) {
	return nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
		.get(CALLS)
		.query(listQuery(pageNumber, event))
		.reply(200, () => pages[pageNumber - 1]);
}
let pages: IDataObject[] = [];

function requests(sent: IHttpRequestOptions[]): string[] {
	// the query as it goes on the wire (every value as text)
	return sent.map(
		(r) =>
			`${r.method} ${r.url} ${JSON.stringify(
				Object.fromEntries(Object.entries(r.qs ?? {}).map(([k, v]) => [k, String(v)])),
			)}`,
	);
}

/** `count` calls that started during the downtime, one every 3 minutes from 10:01 UTC (ids from 9001). */
function gapCalls(count: number, step = 3 * MINUTE): Array<{ call: IDataObject; started: number }> {
	return Array.from({ length: count }, (_, i) => {
		const started = DOWN_AT + MINUTE + i * step;
		return { call: listCall(9001 + i, started), started };
	});
}

/** A call that started before the window (30 minutes before the watermark): where reading stops. */
const BEFORE = listCall(8990, DOWN_AT - 30 * MINUTE);

describe('Voice Chat Assistant Trigger: catching up after downtime', () => {
	it('30 calls ended while n8n was down: the next delivery starts them oldest first, then the delivered call, with one list request', async () => {
		const gap = gapCalls(30);
		pages = listPages([DELIVERED_LISTED, ...gap.map((g) => g.call), BEFORE]);
		const scope = expectList(1);
		const { items, sent, staticData: data, response, logs } = await deliver({});
		expect(scope.isDone()).toBe(true);
		expect(requests(sent)).toEqual([`GET ${CALLS} ${JSON.stringify(listQuery(1))}`]);
		expect(items).toHaveLength(31);
		expect(items.slice(0, 30)).toEqual(gap.map((g) => caughtUpItem(g.call, g.started)));
		// the delivered call last, as delivered (no caught_up mark)
		expect(items[30]).toEqual({
			event: 'inboundCallCompleted',
			assistant_id: 34,
			...PAYLOAD,
			transcript_text: PAYLOAD.transcript,
		});
		expect(response).toMatchObject({ statusCode: 200, body: { received: true } });
		// the watermark moves to a minute ago (calls that ended since are left to their delivery);
		// the started calls are remembered (the delivered one is the service's record); the zone is learned
		expect(data.catchUp).toEqual({
			zone: 60,
			assistants: {
				'34': { at: NOW - MINUTE, recent: gap.map((g) => [g.call.id, NOW]) },
			},
		});
		expect(logs).toContainEqual({
			level: 'info',
			message: expect.stringMatching(
				/caught up 30 call\(s\) of assistant 34 .*ids 9001, 9002, .*9030\)$/,
			),
		});
	});

	it('a call that ended in the last minute is left to its own delivery (one execution per call); a later catch-up starts it if that delivery never comes', async () => {
		const gap = gapCalls(2);
		// 9050 started 90 s ago and ended 30 s ago: its delivery is on its way
		const recent = listCall(9050, NOW - 90_000);
		pages = listPages([DELIVERED_LISTED, recent, ...gap.map((g) => g.call), BEFORE]);
		expectList(1);
		const first = await deliver({});
		expect(first.items.map((i) => i.id)).toEqual([9001, 9002, DELIVERED_ID]);
		// the watermark stays before 9050's end
		const at = (
			first.staticData.catchUp as IDataObject & { assistants: Record<string, { at: number }> }
		).assistants['34'].at;
		expect(at).toBe(NOW - MINUTE);

		// its delivery never came; the next delivery after a quiet time starts it
		clock.advance(10 * MINUTE);
		pages = listPages([
			listCall(20_001, NOW + 9 * MINUTE),
			DELIVERED_LISTED,
			recent,
			...gap.map((g) => g.call),
			BEFORE,
		]);
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query(true)
			.reply(200, () => pages[0]);
		const second = await deliver({
			staticData: first.staticData,
			body: { ...PAYLOAD, id: 20_001, created_at: iso(NOW + 9 * MINUTE) },
		});
		expect(second.items.map((i) => i.id)).toEqual([9050, 20_001]);
		expect(second.items[0].caught_up).toBe(true);
	});

	it('one list request per 100 calls: 130 calls take two pages', async () => {
		const gap = gapCalls(130, 50_000);
		pages = listPages([DELIVERED_LISTED, ...gap.map((g) => g.call), BEFORE]);
		const first = expectList(1);
		const second = expectList(2);
		const { items, sent } = await deliver({});
		expect(first.isDone() && second.isDone()).toBe(true);
		expect(requests(sent)).toEqual([
			`GET ${CALLS} ${JSON.stringify(listQuery(1))}`,
			`GET ${CALLS} ${JSON.stringify(listQuery(2))}`,
		]);
		expect(items).toHaveLength(131);
		expect(items.slice(0, 130).map((i) => i.id)).toEqual(gap.map((g) => g.call.id));
		expect(items[130].id).toBe(DELIVERED_ID);
	});

	it('a second delivery right after asks nothing and starts only itself', async () => {
		pages = listPages([DELIVERED_LISTED, ...gapCalls(3).map((g) => g.call), BEFORE]);
		expectList(1);
		const first = await deliver({});
		expect(first.items).toHaveLength(4);
		clock.advance(MINUTE);
		const before = JSON.stringify(first.staticData);
		const second = await deliver({
			staticData: first.staticData,
			body: { ...PAYLOAD, id: DELIVERED_ID + 1 },
		});
		expect(second.sent).toEqual([]);
		expect(second.items.map((i) => i.id)).toEqual([DELIVERED_ID + 1]);
		// nothing written: n8n has nothing to save for this delivery
		expect(JSON.stringify(second.staticData)).toBe(before);
	});

	it('after a restart the first delivery catches up again, and starts nothing that was started before', async () => {
		const gap = gapCalls(3);
		pages = listPages([DELIVERED_LISTED, ...gap.map((g) => g.call), BEFORE]);
		expectList(1);
		const first = await deliver({});
		expect(first.items).toHaveLength(4);
		// n8n restarts (the process forgets) and comes back 10 minutes later; two more calls ended meanwhile
		resetCatchUpMemory();
		resetReplays();
		clock.advance(10 * MINUTE);
		const later = [
			listCall(DELIVERED_ID + 2, NOW + 2 * MINUTE),
			listCall(DELIVERED_ID + 3, NOW + 3 * MINUTE),
		];
		const next = { ...PAYLOAD, id: DELIVERED_ID + 4, created_at: iso(NOW + 8 * MINUTE) };
		// the service recorded the trigger's answer to the delivered call (its webhook_response)
		pages = listPages([
			listCall(DELIVERED_ID + 4, NOW + 8 * MINUTE, { duration: 73 }),
			...later,
			{ ...DELIVERED_LISTED, webhook_response: { received: true } },
			...gap.map((g) => g.call),
			BEFORE,
		]);
		const scope = nock(TEST_BASE_URL)
			.get(CALLS)
			.query({
				assistant_id: '34',
				date_from: '2026-11-25',
				type: 'inbound',
				per_page: '100',
				page: '1',
			})
			.reply(200, pages[0]);
		const second = await deliver({ staticData: first.staticData, body: next });
		expect(scope.isDone()).toBe(true);
		expect(second.items.map((i) => [i.id, i.caught_up])).toEqual([
			[DELIVERED_ID + 2, true],
			[DELIVERED_ID + 3, true],
			[DELIVERED_ID + 4, undefined],
		]);
	});

	it('the inbound event starts no outbound call; calls still running are left to the service', async () => {
		const inbound = listCall(9001, DOWN_AT + MINUTE);
		const outbound = listCall(9002, DOWN_AT + 2 * MINUTE, { type: 'outbound' });
		const running = listCall(9003, NOW - 5 * MINUTE, { status: 'in-progress' });
		pages = listPages([DELIVERED_LISTED, inbound, outbound, running, BEFORE]);
		expectList(1);
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9001, DELIVERED_ID]);
	});

	it('Call Completed: every type, failed, no-answer and busy calls skipped with Only Completed Calls, and Call Statuses applied', async () => {
		const calls = [
			listCall(9001, DOWN_AT + MINUTE, { type: 'outbound' }),
			listCall(9002, DOWN_AT + 2 * MINUTE, { status: 'failed' }),
			listCall(9003, DOWN_AT + 3 * MINUTE, { status: 'no-answer', type: 'outbound' }),
			listCall(9004, DOWN_AT + 4 * MINUTE, { status: 'busy' }),
			listCall(9005, DOWN_AT + 5 * MINUTE, { type: 'web', status: 'ended_by_customer' }),
			listCall(9006, DOWN_AT + 6 * MINUTE, { status: 'ended' }),
		];
		pages = listPages([DELIVERED_LISTED, ...calls, BEFORE]);
		expectList(1, 'callCompleted');
		const { items, sent } = await deliver({
			staticData: staticData('callCompleted'),
			parameters: parameters({
				event: 'callCompleted',
				options: { callStatuses: ['completed', 'ended_by_customer'] },
			}),
		});
		// no "type" filter for the post-call webhook
		expect(requests(sent)).toEqual([
			`GET ${CALLS} ${JSON.stringify(listQuery(1, 'callCompleted'))}`,
		]);
		expect(items.map((i) => [i.id, i.event, i.caught_up])).toEqual([
			[9001, 'callCompleted', true],
			[9005, 'callCompleted', true],
			[DELIVERED_ID, 'callCompleted', undefined],
		]);
	});

	it('Call Completed without Only Completed Calls starts failed calls too', async () => {
		const failed = listCall(9002, DOWN_AT + 2 * MINUTE, { status: 'failed' });
		pages = listPages([DELIVERED_LISTED, failed, BEFORE]);
		expectList(1, 'callCompleted');
		const data = staticData('callCompleted');
		((data.registration as IDataObject).settings as IDataObject).send_webhook_only_on_completed =
			false;
		const { items } = await deliver({
			staticData: data,
			parameters: parameters({ event: 'callCompleted', options: { onlyCompletedCalls: false } }),
		});
		expect(items.map((i) => [i.id, i.status])).toEqual([
			[9002, 'failed'],
			[DELIVERED_ID, 'completed'],
		]);
	});

	it('a call delivered before the downtime is not started again', async () => {
		const delivered = listCall(8999, DOWN_AT - 3 * MINUTE);
		const missed = listCall(9001, DOWN_AT + MINUTE);
		pages = listPages([DELIVERED_LISTED, missed, delivered, BEFORE]);
		expectList(1);
		const { items } = await deliver({
			staticData: staticData('inboundCallCompleted', [[8999, DOWN_AT - MINUTE]]),
		});
		expect(items.map((i) => i.id)).toEqual([9001, DELIVERED_ID]);
	});

	it('a caught-up call that the service delivers later in the same process starts nothing', async () => {
		const gap = gapCalls(2);
		pages = listPages([DELIVERED_LISTED, ...gap.map((g) => g.call), BEFORE]);
		expectList(1);
		const first = await deliver({});
		expect(first.items.map((i) => i.id)).toEqual([9001, 9002, DELIVERED_ID]);
		clock.advance(30_000);
		const again = await deliver({ staticData: first.staticData, body: { ...PAYLOAD, id: 9002 } });
		expect(again.result.workflowData).toBeUndefined();
		expect(again.response).toMatchObject({
			statusCode: 200,
			body: { received: true, duplicate: true },
		});
		expect(again.sent).toEqual([]);
	});

	it('a call whose delivery is being built right now (its recording downloading) is left to that delivery', async () => {
		const probe = registered.webhookContext().context;
		const key = deliveryKey(
			`${probe.getWorkflow().id}|${probe.getNode().id}`,
			'inboundCallCompleted',
			{ id: 9002 },
		) as string;
		start(key);
		try {
			pages = listPages([DELIVERED_LISTED, ...gapCalls(3).map((g) => g.call), BEFORE]);
			expectList(1);
			const { items } = await deliver({});
			expect(items.map((i) => i.id)).toEqual([9001, 9003, DELIVERED_ID]);
		} finally {
			finish(key);
		}
	});

	it('a caught-up call is remembered before its item is built: its delivery arriving meanwhile starts nothing', async () => {
		const gap = gapCalls(2);
		pages = listPages([DELIVERED_LISTED, ...gap.map((g) => g.call), BEFORE]);
		expectList(1);
		let duringBuild: Awaited<ReturnType<typeof deliver>> | undefined;
		// the recording of the first caught-up call answers only after the delivery of 9002 arrived
		// the delivered call's own recording: looked up in the list by phone number, then failing
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query((query) => 'phone_number' in query)
			.reply(200, page([DELIVERED_LISTED], 1, 1));
		const cdn = nock('https://cdn.example.com');
		cdn.get(`/recordings/${DELIVERED_ID}.mp3`).reply(500, 'down');
		cdn.get('/recordings/9001.mp3').reply(async () => {
			duringBuild = await deliver({ body: { ...PAYLOAD, id: 9002 } });
			return [500, 'down'];
		});
		cdn.get('/recordings/9002.mp3').reply(500, 'down');
		const first = await deliver({
			parameters: parameters({ options: { downloadRecording: true } }),
		});
		expect(first.items.map((i) => i.id)).toEqual([9001, 9002, DELIVERED_ID]);
		expect(duringBuild?.result.workflowData).toBeUndefined();
		expect(duringBuild?.response).toMatchObject({
			statusCode: 200,
			body: { received: true, duplicate: true },
		});
	});

	it('a call this process started already is not started again, even when the saved state does not list it', async () => {
		// call 9002 reached this trigger (as assistant 12's) before the saved state was written
		const other = await deliver({
			query: { assistant_id: '12', secret: URL_PARAM },
			body: { ...PAYLOAD, id: 9002 },
		});
		expect(other.items.map((i) => i.id)).toEqual([9002]);
		pages = listPages([DELIVERED_LISTED, ...gapCalls(3).map((g) => g.call), BEFORE]);
		expectList(1);
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9001, 9003, DELIVERED_ID]);
	});

	it('a failed list request still starts the delivered call, is logged, keeps the watermark, and the next delivery tries again', async () => {
		nock(TEST_BASE_URL).get(CALLS).query(listQuery(1)).reply(401, { message: 'Unauthenticated.' });
		const first = await deliver({});
		expect(first.items.map((i) => [i.id, i.caught_up])).toEqual([[DELIVERED_ID, undefined]]);
		expect(requests(first.sent)).toEqual([`GET ${CALLS} ${JSON.stringify(listQuery(1))}`]);
		const warning = first.logs.find((l) => l.level === 'warn');
		expect(warning?.message).toMatch(
			/^Voice Chat Assistant Trigger: could not catch up the calls of assistant 34 that ended since 2026-11-26T10:00:00Z: .*a later call tries again$/,
		);
		expect(JSON.stringify(first.logs)).not.toContain(TEST_API_KEY);
		expect(first.staticData.catchUp).toEqual({ assistants: { '34': { at: DOWN_AT, recent: [] } } });

		// the next delivery (a minute later) reads the same window and starts what was missed, not the call started before
		clock.advance(MINUTE);
		const gap = gapCalls(2);
		pages = listPages([
			listCall(DELIVERED_ID + 1, NOW, { duration: 50 }),
			DELIVERED_LISTED,
			...gap.map((g) => g.call),
			BEFORE,
		]);
		expectList(1);
		const second = await deliver({
			staticData: first.staticData,
			body: { ...PAYLOAD, id: DELIVERED_ID + 1, duration: 50, created_at: iso(NOW) },
		});
		expect(second.items.map((i) => [i.id, i.caught_up])).toEqual([
			[9001, true],
			[9002, true],
			[DELIVERED_ID + 1, undefined],
		]);
	});

	it('Listen for Test Event never catches up and keeps no state', async () => {
		const data = staticData();
		const before = JSON.parse(JSON.stringify(data)) as IDataObject;
		const { items, sent, staticData: after } = await deliver({ mode: 'manual', staticData: data });
		expect(sent).toEqual([]);
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(after).toEqual(before);
	});

	it('a trigger without catch-up state starts it at its first delivery, without reading the list', async () => {
		const {
			items,
			sent,
			staticData: data,
		} = await deliver({ staticData: staticData('inboundCallCompleted', [], null) });
		expect(sent).toEqual([]);
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(data.catchUp).toEqual({ assistants: { '34': { at: NOW, recent: [] } } });
	});

	it('chats are not caught up', async () => {
		const data = staticData('conversationEnded');
		const { items, sent } = await deliver({
			staticData: data,
			parameters: parameters({ event: 'conversationEnded' }),
			body: {
				conversation_id: '7b7c1f2e-0000-4000-8000-000000000001',
				ended_at: iso(NOW),
				transcript: [],
			},
		});
		expect(sent).toEqual([]);
		expect(items).toHaveLength(1);
	});

	it('"When Last Node Finishes": the delivered call comes first, so the answer is about it', async () => {
		pages = listPages([DELIVERED_LISTED, ...gapCalls(2).map((g) => g.call), BEFORE]);
		expectList(1);
		const { items } = await deliver({ parameters: parameters({ responseMode: 'lastNode' }) });
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID, 9001, 9002]);
	});

	it(`reads at most ${MAX_PAGES} pages and logs what it gives up`, async () => {
		const gap = gapCalls(MAX_PAGES * 100 + 5, 6_000);
		pages = listPages([DELIVERED_LISTED, ...gap.map((g) => g.call), BEFORE]);
		for (let n = 1; n <= MAX_PAGES; n++) expectList(n);
		const { items, sent, logs, staticData: data } = await deliver({});
		expect(sent).toHaveLength(MAX_PAGES);
		// the newest 999 calls of the gap (the delivered one fills the first page's hundredth place), then the delivered one
		expect(items).toHaveLength(MAX_PAGES * 100);
		expect(items[0].id).toBe(9001 + 6);
		expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
			expect.stringMatching(
				/assistant 34 read 1000 calls without reaching 2026-11-26T10:00:00Z; .* older than call 9007 \(created 2026-11-26 11:01:36\) are not started$/,
			),
		]);
		expect((data.catchUp as IDataObject).assistants).toMatchObject({ '34': { at: NOW - MINUTE } });
	});
});

describe('Voice Chat Assistant Trigger: catch-up state and the lifecycle', () => {
	it('removal keeps the catch-up state, marked removed (a publish and a failed start add the trigger back)', async () => {
		const ctx = registered.hookContext({
			staticData: { catchUp: { assistants: { '34': { at: DOWN_AT, recent: [] } } } },
		});
		await expect(trigger.webhookMethods.default.delete.call(ctx.context)).resolves.toBe(true);
		expect(ctx.sent).toEqual([]);
		expect(ctx.staticData).toEqual({
			catchUp: { assistants: { '34': { at: DOWN_AT, recent: [] } }, removedAt: NOW },
		});
	});

	const SAVED = {
		catchUp: {
			zone: 60,
			assistants: {
				'34': { at: DOWN_AT, recent: [[9001, DOWN_AT]] },
				'56': { at: DOWN_AT, recent: [] },
			},
		},
	};

	it.each(['update', 'init', 'leadershipChange'] as const)(
		'registration at %s keeps the watermark of each watched assistant, starts the new ones at now, and drops the others',
		(activationMode) => {
			const ctx = registered.hookContext({
				activationMode,
				staticData: JSON.parse(JSON.stringify(SAVED)) as IDataObject,
			});
			startCatchUp(ctx.context, [12, 34]);
			expect(ctx.staticData.catchUp).toEqual({
				zone: 60,
				assistants: {
					'12': { at: NOW, recent: [] },
					'34': { at: DOWN_AT, recent: [[9001, DOWN_AT]] },
				},
			});
		},
	);

	it("an activation by the user starts every watermark at now: calls of the inactive time are not the workflow's", () => {
		const ctx = registered.hookContext({
			activationMode: 'activate',
			staticData: JSON.parse(JSON.stringify(SAVED)) as IDataObject,
		});
		startCatchUp(ctx.context, [12, 34]);
		expect(ctx.staticData.catchUp).toEqual({
			zone: 60,
			assistants: { '12': { at: NOW, recent: [] }, '34': { at: NOW, recent: [] } },
		});
		const test = registered.hookContext({ mode: 'manual' });
		startCatchUp(test.context, [12]);
		expect(test.staticData).toEqual({});
	});

	it('a publish (removal, then registration at update) and a failed start (removal, then init) keep the watermark; a removal before a restart does not', async () => {
		for (const activationMode of ['update', 'init'] as const) {
			resetCatchUpMemory();
			const data = JSON.parse(JSON.stringify(SAVED)) as IDataObject;
			const removal = registered.hookContext({ staticData: data });
			await trigger.webhookMethods.default.delete.call(removal.context);
			startCatchUp(registered.hookContext({ activationMode, staticData: data }).context, [34]);
			expect(data.catchUp).toEqual({
				zone: 60,
				assistants: { '34': { at: DOWN_AT, recent: [[9001, DOWN_AT]] } },
			});
		}
		// deactivated, n8n restarted, the workflow active again at n8n's start (init)
		const data = JSON.parse(JSON.stringify(SAVED)) as IDataObject;
		await trigger.webhookMethods.default.delete.call(
			registered.hookContext({ staticData: data }).context,
		);
		resetCatchUpMemory();
		startCatchUp(registered.hookContext({ activationMode: 'init', staticData: data }).context, [
			34,
		]);
		expect(data.catchUp).toEqual({ zone: 60, assistants: { '34': { at: NOW, recent: [] } } });
	});

	it('without a zone in the delivered call its start is taken as now minus its duration', async () => {
		// the payload's times name no zone: the list's zone (one hour ahead) is learned from the duration
		const body = {
			...PAYLOAD,
			created_at: '2026-11-26 12:58:00',
			finished_at: '2026-11-26 12:59:13',
		};
		const missed = listCall(9001, DOWN_AT + MINUTE);
		pages = listPages([DELIVERED_LISTED, missed, BEFORE]);
		expectList(1);
		const { items, staticData: data } = await deliver({ body });
		expect(items[0]).toEqual(caughtUpItem(missed, DOWN_AT + MINUTE));
		expect((data.catchUp as IDataObject).zone).toBe(60);
	});
});

describe('Voice Chat Assistant Trigger: every call once, whatever n8n and the service do', () => {
	/** A list whose calls the service answered for: their webhook_response holds the trigger's answer. */
	function answered(call: IDataObject): IDataObject {
		return { ...call, webhook_response: { received: true } };
	}

	it('a short restart in a busy stream: 30 calls that ended while n8n was down all start once, while a call a minute keeps arriving', async () => {
		// the watermark of the last catch-up before the restart, 2 minutes ago; 30 calls ended in
		// the 80 s before now (their deliveries refused), the service never posts them again
		const saved = staticData('inboundCallCompleted', [], NOW - 2 * MINUTE);
		const missed = Array.from({ length: 30 }, (_, i) =>
			listCall(9001 + i, NOW - 90_000 - MINUTE + i * 2_500),
		);
		const started: number[] = [];
		let data = saved;
		const delivered: IDataObject[] = [];
		for (let minute = 0; minute <= 5; minute++) {
			const id = 20_000 + minute;
			const startedAt = clock.now() - 2 * MINUTE;
			const call = listCall(id, startedAt, { duration: 73 });
			pages = listPages([call, ...delivered, ...missed, BEFORE]);
			nock(TEST_BASE_URL)
				.get(CALLS)
				.query(true)
				.reply(200, () => pages[0]);
			const out = await deliver({
				staticData: data,
				body: { ...PAYLOAD, id, created_at: iso(startedAt) },
			});
			started.push(...out.items.map((i) => Number(i.id)));
			// n8n saves what webhook() wrote; the service records the answer to the delivery
			data = JSON.parse(JSON.stringify(out.staticData)) as IDataObject;
			delivered.push(answered(call));
			clock.advance(MINUTE);
		}
		nock.cleanAll();
		const expected = [...missed.map((c) => Number(c.id)), ...delivered.map((c) => Number(c.id))];
		expect([...started].sort()).toEqual([...expected].sort());
		// all of them within 3 minutes after n8n was back
		expect(started.indexOf(9030)).toBeLessThan(started.indexOf(20_003));
	});

	it('the first call since n8n started catches up at once, even when the watermark is only 2 minutes old', async () => {
		const missed = listCall(9001, NOW - 150_000, { updated_at: listTime(NOW - 90_000) });
		pages = listPages([DELIVERED_LISTED, missed, BEFORE]);
		expectList(1);
		const first = await deliver({
			staticData: staticData('inboundCallCompleted', [], NOW - 2 * MINUTE),
		});
		expect(first.items.map((i) => [i.id, i.caught_up])).toEqual([
			[9001, true],
			[DELIVERED_ID, undefined],
		]);
	});

	it("n8n's webhook processes: a call that ended just before, unanswered and not received here, is another process's delivery; this one leaves the catch-up to it, and tries again with its next call", async () => {
		const missed = listCall(9001, NOW - 150_000, { updated_at: listTime(NOW - 90_000) });
		// its delivery went to the other webhook process 5 s ago; the service has not recorded the answer yet
		const elsewhere = listCall(9002, NOW - 65_000, { updated_at: listTime(NOW - 5_000) });
		const delivered = listCall(DELIVERED_ID, NOW - 60_000, { updated_at: listTime(NOW) });
		pages = listPages([delivered, elsewhere, missed, BEFORE]);
		expectList(1);
		const saved = staticData('inboundCallCompleted', [], NOW - 2 * MINUTE);
		const before = JSON.stringify(saved);
		const first = await deliver({ staticData: saved });
		expect(first.items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		// nothing written: the watermark stays for the catch-up of the other process
		expect(JSON.stringify(first.staticData)).toBe(before);
		// 10 s later both answers are recorded; this process's next call catches up at once
		clock.advance(10_000);
		const next = listCall(DELIVERED_ID + 1, NOW - 50_000, { updated_at: listTime(NOW + 10_000) });
		const answered = { webhook_response: { received: true } };
		pages = listPages([
			next,
			{ ...delivered, ...answered },
			{ ...elsewhere, ...answered },
			missed,
			BEFORE,
		]);
		expectList(1);
		const second = await deliver({
			staticData: JSON.parse(before) as IDataObject,
			body: { ...PAYLOAD, id: DELIVERED_ID + 1 },
		});
		expect(second.items.map((i) => [i.id, i.caught_up])).toEqual([
			[9001, true],
			[DELIVERED_ID + 1, undefined],
		]);
	});

	it('calls that ended while n8n was starting come with the first call a minute later, not at the 3-minute lag', async () => {
		// 10 calls ended 20 s before n8n's first delivery since it started: that catch-up leaves
		// them to their own delivery, which the service never sends again
		const starting = Array.from({ length: 10 }, (_, i) =>
			listCall(9001 + i, NOW - 80_000, { updated_at: listTime(NOW - 20_000) }),
		);
		let data = staticData('inboundCallCompleted', [], NOW - 5 * MINUTE);
		const started: number[][] = [];
		// deliveries at 0, 30 and 70 s after n8n's first one since it started
		const reads: boolean[] = [];
		let at = 0;
		for (const [n, offset] of [0, 30_000, 70_000].entries()) {
			clock.advance(offset - at);
			at = offset;
			const id = DELIVERED_ID + n;
			const startedAt = clock.now() - 2 * MINUTE;
			pages = listPages([listCall(id, startedAt, { duration: 73 }), ...starting, BEFORE]);
			const list = nock(TEST_BASE_URL)
				.get(CALLS)
				.query(true)
				.reply(200, () => pages[0]);
			const out = await deliver({
				staticData: data,
				body: { ...PAYLOAD, id, created_at: iso(startedAt) },
			});
			started.push(out.items.map((i) => Number(i.id)));
			data = JSON.parse(JSON.stringify(out.staticData)) as IDataObject;
			reads.push(list.isDone());
			nock.cleanAll();
		}
		// the list is read at the first delivery since the start and at the one 70 s later, not between
		expect(reads).toEqual([true, false, true]);
		// the first catch-up left them (ended less than a minute before), the second delivery is
		// within a minute of it, the third (70 s after the first) starts all 10, once
		expect(started).toEqual([
			[DELIVERED_ID],
			[DELIVERED_ID + 1],
			[...starting.map((c) => Number(c.id)), DELIVERED_ID + 2],
		]);
	});

	it('only calls that ended after the watermark start: one that ended before is not, a long one that ended after is', async () => {
		// created 10 minutes before the watermark and ended 5 minutes before it (a call of the inactive time)
		const before = listCall(9001, DOWN_AT - 10 * MINUTE, {
			duration: 300,
			updated_at: listTime(DOWN_AT - 5 * MINUTE),
		});
		// created 40 minutes before the watermark, ended 5 minutes after it (long, with time in a queue)
		const long = listCall(9002, DOWN_AT - 40 * MINUTE, {
			duration: 1_200,
			updated_at: listTime(DOWN_AT + 5 * MINUTE),
		});
		const old = listCall(8990, DOWN_AT - 90 * MINUTE);
		pages = listPages([DELIVERED_LISTED, long, before, old]);
		expectList(1);
		const { items } = await deliver({});
		expect(items.map((i) => [i.id, i.caught_up])).toEqual([
			[9002, true],
			[DELIVERED_ID, undefined],
		]);
	});

	it("the service's record decides what reached a workflow: answered calls are not started, refused ones are", async () => {
		const calls = [
			listCall(9001, DOWN_AT + MINUTE, { webhook_response: { received: true } }),
			listCall(9002, DOWN_AT + 2 * MINUTE, { webhook_response: { message: 'Unauthorized' } }),
			listCall(9003, DOWN_AT + 3 * MINUTE, {
				webhook_response: {
					code: 404,
					message: 'The requested webhook "POST webhook" is not registered.',
				},
			}),
			// a workflow's own answer ("When Last Node Finishes")
			listCall(9004, DOWN_AT + 4 * MINUTE, { webhook_response: { ok: 1 } }),
			listCall(9005, DOWN_AT + 5 * MINUTE, { webhook_response: {} }),
		];
		pages = listPages([DELIVERED_LISTED, ...calls, BEFORE]);
		expectList(1);
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9002, 9003, 9005, DELIVERED_ID]);
	});

	it("a proxy's gateway error is no delivery (a balancer in front of a webhook process that restarts): those calls are started, a gateway timeout's are not", async () => {
		const NGINX_502 =
			'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
		const calls = [
			listCall(9001, DOWN_AT + MINUTE, { webhook_response: 'Bad Gateway' }),
			listCall(9002, DOWN_AT + 2 * MINUTE, { webhook_response: NGINX_502 }),
			listCall(9003, DOWN_AT + 3 * MINUTE, { webhook_response: 'no healthy upstream' }),
			listCall(9004, DOWN_AT + 4 * MINUTE, {
				webhook_response: { message: 'Service Unavailable' },
			}),
			// n8n may have received these: a gateway timeout, a workflow's own text answer
			listCall(9005, DOWN_AT + 5 * MINUTE, { webhook_response: '504 Gateway Time-out' }),
			listCall(9006, DOWN_AT + 6 * MINUTE, { webhook_response: 'Bad Gateway handled: ok' }),
			listCall(9007, DOWN_AT + 7 * MINUTE, { webhook_response: 'thanks' }),
		];
		pages = listPages([DELIVERED_LISTED, ...calls, BEFORE]);
		expectList(1);
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9001, 9002, 9003, 9004, DELIVERED_ID]);
	});

	it('two deliveries at once, n8n saving each whole (the later save wins), then a restart: nothing starts twice', async () => {
		pages = listPages([DELIVERED_LISTED, ...gapCalls(2).map((g) => g.call), BEFORE]);
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query(true)
			.reply(200, () => pages[0]);
		// both requests load the same saved state
		const saved = JSON.stringify(staticData());
		const [a, b] = await Promise.all([
			deliver({ staticData: JSON.parse(saved) as IDataObject }),
			deliver({
				staticData: JSON.parse(saved) as IDataObject,
				query: { assistant_id: '34', secret: URL_PARAM },
				body: { ...PAYLOAD, id: DELIVERED_ID + 1 },
			}),
		]);
		const first = [...a.items, ...b.items].map((i) => Number(i.id)).sort((x, y) => x - y);
		expect(first).toEqual([9001, 9002, DELIVERED_ID, DELIVERED_ID + 1]);
		// n8n saves a request's copy when webhook() changed it, the later save winning
		let lastSave = JSON.parse(saved) as IDataObject;
		for (const request of [b, a, b]) {
			if (JSON.stringify(request.staticData) !== saved) {
				lastSave = JSON.parse(JSON.stringify(request.staticData)) as IDataObject;
			}
		}
		// n8n restarts; a quiet delivery 10 minutes later
		resetCatchUpMemory();
		resetReplays();
		clock.advance(10 * MINUTE);
		pages = listPages([
			answered(listCall(DELIVERED_ID + 2, NOW + 7 * MINUTE)),
			answered(DELIVERED_LISTED),
			answered(listCall(DELIVERED_ID + 1, NOW - 2 * MINUTE)),
			...gapCalls(2).map((g) => g.call),
			BEFORE,
		]);
		expectList(1);
		const later = await deliver({
			staticData: lastSave,
			body: { ...PAYLOAD, id: DELIVERED_ID + 2, created_at: iso(NOW + 7 * MINUTE) },
		});
		expect(later.items.map((i) => i.id)).toEqual([DELIVERED_ID + 2]);
	});

	it('two assistants catching up at once: both requests hold both new watermarks, whichever n8n saves last', async () => {
		const saved = staticData();
		(saved.catchUp as { assistants: IDataObject }).assistants['12'] = { at: DOWN_AT, recent: [] };
		const text = JSON.stringify(saved);
		pages = listPages([DELIVERED_LISTED, ...gapCalls(2).map((g) => g.call), BEFORE]);
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query(true)
			.times(2)
			.reply(200, () => pages[0]);
		// n8n saves each request's copy when its webhook() returns: the last one is what stays
		const returned: IDataObject[] = [];
		await Promise.all([
			deliver({ staticData: JSON.parse(text) as IDataObject }).then((r) =>
				returned.push(r.staticData),
			),
			deliver({
				staticData: JSON.parse(text) as IDataObject,
				query: { assistant_id: '12', secret: URL_PARAM },
				body: { ...PAYLOAD, id: DELIVERED_ID + 1 },
			}).then((r) => returned.push(r.staticData)),
		]);
		expect(returned[1].catchUp).toMatchObject({
			assistants: { '12': { at: NOW - MINUTE }, '34': { at: NOW - MINUTE } },
		});
	});

	it('a save from an older copy in this process takes nothing back: the next catch-up writes the newest watermark', async () => {
		const stale = staticData();
		pages = listPages([DELIVERED_LISTED, ...gapCalls(2).map((g) => g.call), BEFORE]);
		expectList(1);
		const first = await deliver({ staticData: JSON.parse(JSON.stringify(stale)) as IDataObject });
		expect(first.items).toHaveLength(3);
		// another request saved the copy it loaded before: the saved watermark is the old one again
		clock.advance(5 * MINUTE);
		pages = listPages([
			listCall(DELIVERED_ID + 1, NOW + 3 * MINUTE),
			answered(DELIVERED_LISTED),
			...gapCalls(2).map((g) => g.call),
			BEFORE,
		]);
		expectList(1);
		const second = await deliver({
			staticData: stale,
			body: { ...PAYLOAD, id: DELIVERED_ID + 1, created_at: iso(NOW + 3 * MINUTE) },
		});
		expect(second.items.map((i) => i.id)).toEqual([DELIVERED_ID + 1]);
		expect(second.staticData.catchUp).toMatchObject({
			assistants: {
				'34': {
					at: NOW + 4 * MINUTE,
					recent: [
						[9001, NOW],
						[9002, NOW],
					],
				},
			},
		});
	});

	it('with Verify Secret off, a post without the secret never makes the real delivery a duplicate', async () => {
		const params = parameters({ verifySecret: false });
		const guessed = await deliver({
			parameters: params,
			staticData: staticData('inboundCallCompleted', [], null),
			query: { assistant_id: '34' },
			body: { ...PAYLOAD, id: 9100 },
		});
		expect(guessed.items.map((i) => i.id)).toEqual([9100]);
		const again = await deliver({
			parameters: params,
			staticData: staticData('inboundCallCompleted', [], null),
			query: { assistant_id: '34' },
			body: { ...PAYLOAD, id: 9100 },
		});
		expect(again.response).toMatchObject({ body: { received: true, duplicate: true } });
		const real = await deliver({
			parameters: params,
			staticData: staticData('inboundCallCompleted', [], null),
			body: { ...PAYLOAD, id: 9100 },
		});
		expect(real.items.map((i) => i.id)).toEqual([9100]);
		expect(real.response).toMatchObject({ body: { received: true } });
		expect(real.response).not.toMatchObject({ body: { duplicate: true } });
	});

	it('a delivery repeated while its recording downloads starts nothing', async () => {
		let during: Awaited<ReturnType<typeof deliver>> | undefined;
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query((query) => 'phone_number' in query)
			.reply(200, page([DELIVERED_LISTED], 1, 1));
		nock('https://cdn.example.com')
			.get(`/recordings/${DELIVERED_ID}.mp3`)
			.reply(async () => {
				during = await deliver({ staticData: staticData('inboundCallCompleted', [], null) });
				return [200, Buffer.from('ID3')];
			});
		const first = await deliver({
			staticData: staticData('inboundCallCompleted', [], null),
			parameters: parameters({ options: { downloadRecording: true } }),
		});
		expect(first.items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(during?.result.workflowData).toBeUndefined();
		expect(during?.response).toMatchObject({ body: { received: true, duplicate: true } });
	});

	it('Download Recording with Include Recording off: a caught-up call has its recording as binary, without recording_url', async () => {
		const data = staticData('callCompleted');
		((data.registration as IDataObject).settings as IDataObject).include_recording_in_webhook =
			false;
		const missed = listCall(9001, DOWN_AT + MINUTE);
		pages = listPages([DELIVERED_LISTED, missed, BEFORE]);
		expectList(1, 'callCompleted');
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query((query) => 'phone_number' in query)
			.reply(200, page([DELIVERED_LISTED], 1, 1));
		const cdn = nock('https://cdn.example.com');
		cdn.get('/recordings/9001.mp3').reply(200, Buffer.from('ID3-9001'));
		cdn.get(`/recordings/${DELIVERED_ID}.mp3`).reply(200, Buffer.from('ID3'));
		const ctx = registered.webhookContext({
			staticData: data,
			body: { ...PAYLOAD, recording_url: undefined },
			parameters: parameters({
				event: 'callCompleted',
				options: { downloadRecording: true, includeRecording: false },
			}),
		});
		const result = await trigger.webhook.call(ctx.context);
		const first = (
			result.workflowData as Array<Array<{ json: IDataObject; binary?: IDataObject }>>
		)[0][0];
		expect(first.json.id).toBe(9001);
		expect(first.json).not.toHaveProperty('recording_url');
		expect(first.binary?.data).toBeDefined();
	});
});
