/**
 * Catching up after downtime, how far and when: a delivery that arrives after
 * n8n could not receive starts the calls that ended meanwhile (read from the
 * call list, a page per 100 calls, 1,000 calls at most), oldest first and
 * marked `caught_up`, then the delivered one; back to the watermark, leaving
 * the calls of the last minute to their own delivery; a failed read tries again
 * with the next delivery. Every test asserts the exact requests sent.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { MAX_PAGES } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUp';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import {
	CALLS,
	DELIVERED_ID,
	DOWN_AT,
	MINUTE,
	NOW,
	listCall,
	listPages,
	listTime,
} from './catchUpFixtures';
import {
	BEFORE,
	DELIVERED_LISTED,
	PAYLOAD,
	posted,
	caughtUpItem,
	deliver,
	gapCalls,
	iso,
	listQuery,
	requests,
	staticData,
	useCatchUpList,
} from './catchUpHarness';

const { clock, list, expectList, listAll, listed } = useCatchUpList();

describe('Voice Chat Assistant Trigger: catching up after downtime', () => {
	it('30 calls ended while n8n was down: the next delivery starts them oldest first, then the delivered call, with one list request', async () => {
		const gap = gapCalls(30);
		const scope = listed(gap.map((g) => g.call));
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
		listed([recent, ...gap.map((g) => g.call)]);
		const first = await deliver({});
		expect(first.items.map((i) => i.id)).toEqual([9001, 9002, DELIVERED_ID]);
		// the watermark stays before 9050's end
		const at = (
			first.staticData.catchUp as IDataObject & { assistants: Record<string, { at: number }> }
		).assistants['34'].at;
		expect(at).toBe(NOW - MINUTE);

		// its delivery never came; the next delivery after a quiet time starts it
		clock.advance(10 * MINUTE);
		list.pages = listPages([
			listCall(20_001, NOW + 9 * MINUTE),
			DELIVERED_LISTED,
			recent,
			...gap.map((g) => g.call),
			BEFORE,
		]);
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query(true)
			.reply(200, () => list.pages[0]);
		const second = await deliver({
			staticData: first.staticData,
			body: posted(20_001, NOW + 9 * MINUTE),
		});
		expect(second.items.map((i) => i.id)).toEqual([9050, 20_001]);
		expect(second.items[0].caught_up).toBe(true);
	});

	it('one list request per 100 calls: 130 calls take two pages', async () => {
		const gap = gapCalls(130, 50_000);
		const first = listed(gap.map((g) => g.call));
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
		listed(gapCalls(3).map((g) => g.call));
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
		listAll([
			listCall(DELIVERED_ID + 1, NOW, { duration: 50 }),
			DELIVERED_LISTED,
			...gap.map((g) => g.call),
			BEFORE,
		]);
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

	it(`reads at most ${MAX_PAGES} pages and logs what it gives up`, async () => {
		const gap = gapCalls(MAX_PAGES * 100 + 5, 6_000);
		list.pages = listPages([DELIVERED_LISTED, ...gap.map((g) => g.call), BEFORE]);
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

describe('Voice Chat Assistant Trigger: every call once, whatever n8n and the service do', () => {
	it('the first call since n8n started catches up at once, even when the watermark is only 2 minutes old', async () => {
		const missed = listCall(9001, NOW - 150_000, { updated_at: listTime(NOW - 90_000) });
		listed([missed]);
		const first = await deliver({
			staticData: staticData('inboundCallCompleted', [], NOW - 2 * MINUTE),
		});
		expect(first.items.map((i) => [i.id, i.caught_up])).toEqual([
			[9001, true],
			[DELIVERED_ID, undefined],
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
			list.pages = listPages([listCall(id, startedAt, { duration: 73 }), ...starting, BEFORE]);
			const read = nock(TEST_BASE_URL)
				.get(CALLS)
				.query(true)
				.reply(200, () => list.pages[0]);
			const out = await deliver({
				staticData: data,
				body: posted(id, startedAt),
			});
			started.push(out.items.map((i) => Number(i.id)));
			data = JSON.parse(JSON.stringify(out.staticData)) as IDataObject;
			reads.push(read.isDone());
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
		list.pages = listPages([DELIVERED_LISTED, long, before, old]);
		expectList(1);
		const { items } = await deliver({});
		expect(items.map((i) => [i.id, i.caught_up])).toEqual([
			[9002, true],
			[DELIVERED_ID, undefined],
		]);
	});
});
