/**
 * The webhook trigger's heartbeat (calls/heartbeat.ts) against a simulator that never posts a call
 * webhook again: after an outage longer than one round reaches, every missed call starts once, in
 * an execution of its own, oldest first, a bounded number per round. n8n's saving is modelled
 * (`savesLikeN8n`); time moves by shifting Date.now (the simulator's and the node's clock); a
 * restart forgets the node's in-process memory.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_ROUND_PAGES, MAX_STARTS } from '../../nodes/VoiceChatAssistantTrigger/calls/catchUp';
import { CALL_TRIGGER as TRIGGER, callCompletedTrigger } from './helpers/callTrigger';
import { shiftedClockPerTest, simulatorForTests } from './helpers/workflows';

const MINUTE = 60_000;
const OUTAGE_CALLS = 3_000;
const OUTAGE_MS = 2 * 60 * MINUTE;

describe('Trigger heartbeat: an outage longer than one round reaches', () => {
	const sim = simulatorForTests({ redeliveryDelaysMs: [], rateLimit: false }, { resetEach: true });
	const { advance } = shiftedClockPerTest();
	const { activated, callEnds, restart, workflow } = callCompletedTrigger(
		sim,
		'5c1d2c3b-0a9b-4c3d-8e7f-aabbccddee01',
	);

	/** The call-list requests the simulator answered since `from` (an index of its log). */
	const listRequests = (from: number) =>
		sim.log.slice(from).filter((e) => e.method === 'GET' && e.path === '/api/user/calls').length;

	it(`${OUTAGE_CALLS} calls missed over a 2-hour outage: the rounds start each once, in an execution of its own, oldest first, ${MAX_STARTS} a round`, async () => {
		const test = await activated();
		// a delivered call teaches the trigger the service's time zone
		advance(MINUTE);
		const first = await callEnds();
		await test.waitForDeliveries(1);
		// n8n is down for 2 hours while the calls end (their deliveries refused, never posted again)
		test.down = true;
		const missed: number[] = [];
		for (let n = 0; n < OUTAGE_CALLS; n++) {
			advance(OUTAGE_MS / OUTAGE_CALLS);
			missed.push(await callEnds());
		}
		restart();
		test.down = false;
		expect(await test.hook(TRIGGER, 'checkExists', { activation: 'init' })).toBe(true);
		// the heartbeat's rounds: 20 s after the start, a minute later, then every 2 minutes
		const rounds: Array<{ executions: IDataObject[][]; requests: number }> = [];
		let wait = 20_000;
		for (let round = 0; round < 5; round++) {
			advance(wait);
			const from = sim.log.length;
			const executions = await test.beat(TRIGGER);
			rounds.push({ executions, requests: listRequests(from) });
			wait = round === 0 ? MINUTE : 2 * MINUTE;
		}
		// a bounded number per round, oldest first, and every round within its read budget
		expect(rounds.map((r) => r.executions.length)).toEqual([
			MAX_STARTS,
			MAX_STARTS,
			MAX_STARTS,
			0,
			0,
		]);
		for (const { requests } of rounds) expect(requests).toBeLessThanOrEqual(MAX_ROUND_PAGES);
		const executions = rounds.flatMap((r) => r.executions);
		// one call per execution, marked caught_up; all of them once, in the order they ended
		expect(executions.filter((items) => items.length !== 1 || items[0].caught_up !== true)).toEqual(
			[],
		);
		expect(executions.map((items) => Number(items[0].id))).toEqual(missed);
		// the delivered call was never started again
		expect(executions.some((items) => Number(items[0].id) === first)).toBe(false);
	}, 120_000);

	it('Verify Secret off behind a proxy that drops query strings, the service writing its times at +05:45: no delivery teaches the zone, yet after a restart every missed call starts once, in its own execution, learned from a call that ends between two rounds', async () => {
		sim.setConfig({ serviceZoneMinutes: 5 * 60 + 45 });
		try {
			const test = workflow({ verifySecret: false });
			test.stripQuery = true;
			await test.listen();
			expect(await test.hook(TRIGGER, 'create', { activation: 'activate' })).toBe(true);
			// delivered before the outage: each starts its execution; none teaches the zone (unverified)
			advance(MINUTE);
			const before = [await callEnds(), await callEnds()];
			await test.waitForDeliveries(2);
			test.down = true;
			const missed: number[] = [];
			for (let n = 0; n < 5; n++) {
				advance(MINUTE);
				missed.push(await callEnds());
			}
			restart();
			test.down = false;
			expect(await test.hook(TRIGGER, 'checkExists', { activation: 'init' })).toBe(true);
			// the first round after the start reads the list but cannot place its times yet
			advance(20_000);
			expect(await test.beat(TRIGGER)).toEqual([]);
			// a call that starts and ends between two rounds is delivered (its own execution) and places
			// the list's times: the next round starts the missed calls
			advance(30_000);
			const between = await callEnds();
			await test.waitForDeliveries(3);
			advance(30_000);
			const second = await test.beat(TRIGGER);
			advance(2 * MINUTE);
			const third = await test.beat(TRIGGER);
			const started = [...second, ...third];
			expect(started.filter((items) => items.length !== 1 || items[0].caught_up !== true)).toEqual(
				[],
			);
			expect(started.map((items) => Number(items[0].id))).toEqual(missed);
			// neither the calls delivered before nor the one between the rounds started again
			for (const id of [...before, between])
				expect(started.some((items) => Number(items[0].id) === id)).toBe(false);
		} finally {
			sim.setConfig({ serviceZoneMinutes: 0 });
		}
	}, 60_000);
});
