/**
 * Catching up across n8n's restarts, its webhook processes and its saving of
 * the static data: after a restart, in a busy stream, with deliveries and
 * catch-ups at once (n8n saving each request's copy whole, the later save
 * winning), every call starts once.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../helpers/context';
import {
	CALLS,
	DELIVERED_ID,
	DOWN_AT,
	MINUTE,
	NOW,
	URL_PARAM,
	listCall,
	listPages,
	listTime,
} from './catchUpFixtures';
import {
	BEFORE,
	DELIVERED_LISTED,
	PAYLOAD,
	posted,
	answered,
	deliver,
	gapCalls,
	staticData,
	restartProcess,
	useCatchUpList,
} from './catchUpHarness';

const { clock, list, expectList, listAll, listed } = useCatchUpList();

/** The delivery of call `id`, started at `startedMs`, over the saved `data`: it starts that call alone. */
async function deliverStartsAlone(id: number, startedMs: number, data: IDataObject) {
	const delivery = await deliver({ staticData: data, body: posted(id, startedMs) });
	expect(delivery.items.map((i) => i.id)).toEqual([id]);
	return delivery;
}

describe('Voice Chat Assistant Trigger: catching up after downtime', () => {
	it('after a restart the first delivery catches up again, and starts nothing that was started before', async () => {
		const gap = gapCalls(3);
		listed(gap.map((g) => g.call));
		const first = await deliver({});
		expect(first.items).toHaveLength(4);
		// n8n restarts (the process forgets) and comes back 10 minutes later; two more calls ended meanwhile
		restartProcess();
		clock.advance(10 * MINUTE);
		const later = [
			listCall(DELIVERED_ID + 2, NOW + 2 * MINUTE),
			listCall(DELIVERED_ID + 3, NOW + 3 * MINUTE),
		];
		const next = posted(DELIVERED_ID + 4, NOW + 8 * MINUTE);
		// the service recorded the trigger's answer to the delivered call (its webhook_response)
		list.pages = listPages([
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
			.reply(200, list.pages[0]);
		const second = await deliver({ staticData: first.staticData, body: next });
		expect(scope.isDone()).toBe(true);
		expect(second.items.map((i) => [i.id, i.caught_up])).toEqual([
			[DELIVERED_ID + 2, true],
			[DELIVERED_ID + 3, true],
			[DELIVERED_ID + 4, undefined],
		]);
	});
});

describe('Voice Chat Assistant Trigger: every call once, whatever n8n and the service do', () => {
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
			list.pages = listPages([call, ...delivered, ...missed, BEFORE]);
			nock(TEST_BASE_URL)
				.get(CALLS)
				.query(true)
				.reply(200, () => list.pages[0]);
			const out = await deliver({
				staticData: data,
				body: posted(id, startedAt),
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

	it("n8n's webhook processes: a call that ended just before, unanswered and not received here, is another process's delivery; this one leaves the catch-up to it, and tries again with its next call", async () => {
		const missed = listCall(9001, NOW - 150_000, { updated_at: listTime(NOW - 90_000) });
		// its delivery went to the other webhook process 5 s ago; the service has not recorded the answer yet
		const elsewhere = listCall(9002, NOW - 65_000, { updated_at: listTime(NOW - 5_000) });
		const delivered = listCall(DELIVERED_ID, NOW - 60_000, { updated_at: listTime(NOW) });
		list.pages = listPages([delivered, elsewhere, missed, BEFORE]);
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
		listAll([next, { ...delivered, ...answered }, { ...elsewhere, ...answered }, missed, BEFORE]);
		const second = await deliver({
			staticData: JSON.parse(before) as IDataObject,
			body: { ...PAYLOAD, id: DELIVERED_ID + 1 },
		});
		expect(second.items.map((i) => [i.id, i.caught_up])).toEqual([
			[9001, true],
			[DELIVERED_ID + 1, undefined],
		]);
	});

	it('two deliveries at once, n8n saving each whole (the later save wins), then a restart: nothing starts twice', async () => {
		list.pages = listPages([DELIVERED_LISTED, ...gapCalls(2).map((g) => g.call), BEFORE]);
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query(true)
			.reply(200, () => list.pages[0]);
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
		restartProcess();
		clock.advance(10 * MINUTE);
		listAll([
			answered(listCall(DELIVERED_ID + 2, NOW + 7 * MINUTE)),
			answered(DELIVERED_LISTED),
			answered(listCall(DELIVERED_ID + 1, NOW - 2 * MINUTE)),
			...gapCalls(2).map((g) => g.call),
			BEFORE,
		]);
		await deliverStartsAlone(DELIVERED_ID + 2, NOW + 7 * MINUTE, lastSave);
	});

	it('two assistants catching up at once: both requests hold both new watermarks, whichever n8n saves last', async () => {
		const saved = staticData();
		(saved.catchUp as { assistants: IDataObject }).assistants['12'] = { at: DOWN_AT, recent: [] };
		const text = JSON.stringify(saved);
		list.pages = listPages([DELIVERED_LISTED, ...gapCalls(2).map((g) => g.call), BEFORE]);
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query(true)
			.times(2)
			.reply(200, () => list.pages[0]);
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
		listed(gapCalls(2).map((g) => g.call));
		const first = await deliver({ staticData: JSON.parse(JSON.stringify(stale)) as IDataObject });
		expect(first.items).toHaveLength(3);
		// another request saved the copy it loaded before: the saved watermark is the old one again
		clock.advance(5 * MINUTE);
		listAll([
			listCall(DELIVERED_ID + 1, NOW + 3 * MINUTE),
			answered(DELIVERED_LISTED),
			...gapCalls(2).map((g) => g.call),
			BEFORE,
		]);
		const second = await deliverStartsAlone(DELIVERED_ID + 1, NOW + 3 * MINUTE, stale);
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
});
