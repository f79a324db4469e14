/**
 * Call Ended in a real workflow (n8n-core's PollContext, one context and the
 * workflow's static data for every poll, as n8n's poller has them) against
 * the simulator:
 * - polls that overlap, as n8n's default poller starts them (`void
 *   executePollTrigger()` at each Poll Time, without waiting for the previous
 *   poll): each call is emitted once;
 * - a call on its way at activation behind more than 100 newer calls is
 *   emitted once when it ends.
 */
import type { IDataObject } from 'n8n-workflow';

import { callEndedPolling, emittedIds } from './helpers/polling';
import { simulatorForTests } from './helpers/workflows';

describe('Call Ended in a workflow against the simulator: overlapping polls, calls on their way at activation', () => {
	const sim = simulatorForTests({}, { resetEach: true });
	const calls = callEndedPolling(sim);
	const { activate, listRequests, poll, seedCalls } = calls;

	afterEach(() => sim.setConfig({ latencyMs: 0 }));

	const endCall = (body: IDataObject = {}) =>
		calls.endCall({ status: 'completed', duration: 0, ...body });

	/** Waits (for an event, not a time) until the simulator logged `count` call-list requests since `from`. */
	async function untilListRequests(from: number, count: number) {
		for (let i = 0; i < 500; i++) {
			if (listRequests(from).length >= count) return;
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		throw new Error('the poll sent no list request');
	}

	it.each([2, 3])(
		'%i polls overlapping a slow one: each call that ended is emitted once',
		async (overlapping) => {
			const test = await activate();
			const ended = [await endCall(), await endCall()];

			// the list answers slowly: the next Poll Times come while the first poll waits
			sim.setConfig({ latencyMs: 400 });
			const before = sim.log.length;
			const first = poll(test);
			await untilListRequests(before, 1);
			const later = Array.from({ length: overlapping - 1 }, () => poll(test));
			const outputs = await Promise.all([first, ...later]);
			sim.setConfig({ latencyMs: 0 });

			expect(outputs.flatMap(emittedIds)).toEqual(ended);
			expect(listRequests(before)).toHaveLength(1);

			// the polls after it go on from where the slow poll got
			expect(await poll(test)).toBeNull();
			const next = await endCall();
			expect(emittedIds(await poll(test))).toEqual([next]);
		},
	);

	it('a call in progress at activation behind 150 newer calls is emitted once when it ends; the cost per poll', async () => {
		const runningId = (await seedCalls(1, 'in-progress')).first;
		await seedCalls(150);
		const requestsOf = async () => {
			const before = sim.log.length;
			const output = await poll(test);
			return { output, sent: listRequests(before).map((e) => e.query as IDataObject) };
		};

		const test = calls.workflow();
		const activation = await requestsOf();
		const whileRunning = await requestsOf();
		await endCall({ call_id: runningId });
		const newer = await endCall();
		const atEnd = await requestsOf();
		const after = await requestsOf();

		// emitted once, when it ended, oldest first
		expect(activation.output).toBeNull();
		expect(whileRunning.output).toBeNull();
		expect(emittedIds(atEnd.output)).toEqual([runningId, newer]);
		expect(after.output).toBeNull();

		// the cost: at activation the first page, then the lists of calls on their way (4 requests once)
		expect(activation.sent.map((q) => q.status ?? 'all')).toEqual([
			'all',
			'in-progress',
			'initiated',
			'ringing',
		]);
		// while it runs: the three status lists and the first page
		expect(whileRunning.sent).toHaveLength(4);
		// when it ends: the status lists, one look-up by the client's number, the first page
		expect(atEnd.sent).toHaveLength(5);
		expect(atEnd.sent.filter((q) => q.phone_number)).toHaveLength(1);
		// watched no more: one request a poll
		expect(after.sent).toHaveLength(1);
	});
});
