/**
 * The polling trigger in a real workflow (n8n-core's PollContext, the
 * workflow's static data) against the simulator, after an outage: 3,000 calls
 * ended while the workflow was off; the polls that follow emit each of them
 * once, oldest first, none above the request ceiling; a poll that fails
 * midway emits nothing and leaves the saved position, so the next poll emits
 * the same calls, once.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_REQUESTS_PER_POLL } from '../../nodes/VoiceChatAssistantPollingTrigger/pages';
import { callEndedPolling, emittedIds } from './helpers/polling';
import type { TestWorkflow } from './helpers/runWorkflow';
import { control, simulatorForTests } from './helpers/workflows';

const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('Polling trigger after an outage, in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });
	const { activate, endCall, listRequests, poll, seedCalls } = callEndedPolling(sim);

	/** Ends `count` outbound calls of assistant 2 (the workflow is off meanwhile); their ids. */
	async function endCalls(count: number) {
		const seeded = await seedCalls(count);
		return range(seeded.first, seeded.last);
	}

	/** Polls until one emits nothing: the ids emitted per poll and the list requests per poll. */
	async function pollUntilQuiet(test: TestWorkflow) {
		const emitted: number[][] = [];
		const requests: number[] = [];
		for (let round = 0; round < 20; round++) {
			const before = sim.log.length;
			const output = await poll(test);
			requests.push(listRequests(before).length);
			if (output === null) return { emitted, requests };
			emitted.push(emittedIds(output));
		}
		throw new Error('the backlog did not end within 20 polls');
	}

	it('3,000 calls ended while off: every one emitted once, oldest first, no poll above the ceiling', async () => {
		const test = await activate();
		const ended = await endCalls(3000);

		const { emitted, requests } = await pollUntilQuiet(test);
		expect(emitted.flat()).toEqual(ended);
		expect(emitted.length).toBeGreaterThan(1);
		for (const count of requests) expect(count).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
		expect(requests[requests.length - 1]).toBe(1); // caught up: one request per poll
		// every request: the list with the trigger's filters, 100 a page, with the key
		for (const entry of listRequests()) {
			expect(entry.method).toBe('GET');
			expect(entry.query).toEqual({
				assistant_id: '2',
				type: 'outbound',
				per_page: '100',
				page: expect.stringMatching(/^\d+$/),
			});
			expect(entry.headers.authorization).toBe('Bearer ***');
			expect(entry.status).toBe(200);
		}

		// a call that ends later comes through on the next poll (it started after the others: duration 0)
		const later = await endCall({ status: 'completed', duration: 0 });
		expect(emittedIds(await poll(test))).toEqual([later]);
	});

	it('a poll that fails midway (500 on its third page, and on both resends of it) emits nothing and keeps the position; the next poll emits the same calls, once', async () => {
		const test = await activate();
		const ended = await endCalls(1500);
		const saved = JSON.stringify(test.staticData);

		await control(sim, 'faults', {
			method: 'GET',
			path: '/api/user/calls',
			rate: 1,
			kinds: ['refuse-500'],
			after: 2,
			// a read is sent again after a 500, twice at most
			times: 3,
		});
		const before = sim.log.length;
		// n8n saves the static data when it is marked as changed: as after a save, the mark is cleared
		const observed = test.staticData as IDataObject & { __dataChanged?: boolean };
		observed.__dataChanged = false;
		await expect(poll(test)).rejects.toThrow();
		expect(sim.log.slice(before).map((entry) => entry.status)).toEqual([200, 200, 500, 500, 500]);
		expect(JSON.stringify(test.staticData)).toBe(saved);
		expect(observed.__dataChanged).toBe(false);

		const { emitted, requests } = await pollUntilQuiet(test);
		expect(emitted.flat()).toEqual(ended);
		for (const count of requests) expect(count).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
		// the polls that emitted moved the position, and n8n was told so
		expect(observed.__dataChanged).toBe(true);
		expect(JSON.stringify(test.staticData)).not.toBe(saved);
	});
});
