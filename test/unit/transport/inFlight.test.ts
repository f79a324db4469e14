import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { resources as typedResources } from '../../../nodes/VoiceChatAssistant/actions/resources';
import type { ResourceModule } from '../../../nodes/VoiceChatAssistant/actions/types';
import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { InFlightSlots, mapInOrder } from '../../../nodes/VoiceChatAssistant/transport/concurrency';
import {
	IN_FLIGHT,
	inFlightFor,
	inFlightForBudget,
} from '../../../nodes/VoiceChatAssistant/transport/inFlight';
import { SlidingWindowLimiter } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

/** The map as the router reads it: the tests put stand-ins in place of an operation. */
const resources: Record<string, ResourceModule> = typedResources;

const standard = { perMinute: 100, burst: 20, burstWindowMs: 10_000 };

describe('requests in flight that follow the budget', () => {
	it('at the standard budget stays small: 2 up to 100 ms of answer time, 4 at 300 ms', () => {
		expect(inFlightForBudget(standard, 20)).toBe(2);
		expect(inFlightForBudget(standard, 100)).toBe(2);
		expect(inFlightForBudget(standard, 300)).toBe(4);
	});

	it('grows with the answer time and with the budget', () => {
		const byLatency = [10, 50, 200, 500, 1000].map((ms) => inFlightForBudget(standard, ms));
		expect([...byLatency].sort((a, b) => a - b)).toEqual(byLatency);
		expect(byLatency[4]).toBeGreaterThan(byLatency[0]);
		const five = { perMinute: 500, burst: 100, burstWindowMs: 10_000 };
		expect(inFlightForBudget(five, 50)).toBeGreaterThan(inFlightForBudget(standard, 50));
	});

	it('is capped at 128 however large the budget and slow the service', () => {
		const large = { perMinute: 60_000, burst: 10_000, burstWindowMs: 10_000 };
		expect(IN_FLIGHT.cap).toBe(128);
		expect(inFlightForBudget(large, 50)).toBe(128);
		expect(inFlightForBudget(large, 60_000)).toBe(128);
	});

	it('is never above the budget: the burst and the minute budget bound it, and it is at least 1', () => {
		expect(inFlightForBudget({ perMinute: 100, burst: 3, burstWindowMs: 10_000 }, 60_000)).toBe(3);
		expect(inFlightForBudget({ perMinute: 2, burst: 20, burstWindowMs: 10_000 }, 60_000)).toBe(2);
		expect(inFlightForBudget({ perMinute: 1, burst: 1, burstWindowMs: 10_000 }, 0)).toBe(1);
	});

	describe('of a credential', () => {
		const clock = fakeClockPerTest();

		it('assumes 100 ms before the first answer, then follows the observed answer time', () => {
			const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 20 });
			expect(inFlightFor(limiter)).toBe(2);
			for (let i = 0; i < 30; i++) limiter.observeLatency(600);
			expect(inFlightFor(limiter)).toBe(7);
		});

		it('follows the adaptive share of queue mode: a 429 that halves the share halves the bound', () => {
			const limiter = new SlidingWindowLimiter({ perMinute: 600, burst: 6 });
			for (let i = 0; i < 10; i++) limiter.observeLatency(10_000);
			expect(inFlightFor(limiter)).toBe(6);
			const grant = limiter.grant();
			limiter.refused(grant, clock.now() + 1000);
			expect(inFlightFor(limiter)).toBe(3);
		});
	});
});

describe('in-flight slots', () => {
	it('follow a limit that changes while the work runs', async () => {
		let limit = 1;
		let inFlight = 0;
		const seen: number[] = [];
		const slots = new InFlightSlots(() => limit);
		await mapInOrder(
			Array.from({ length: 12 }, (_, i) => i),
			slots,
			async (i) => {
				inFlight++;
				seen.push(inFlight);
				if (i === 2) limit = 4;
				await new Promise((resolve) => setTimeout(resolve, 5));
				inFlight--;
				return i;
			},
		);
		expect(seen.slice(0, 3)).toEqual([1, 1, 1]);
		expect(Math.max(...seen)).toBe(4);
	});

	it('a holder coming back from a wait is served before new work', async () => {
		const slots = new InFlightSlots(() => 1);
		const order: string[] = [];
		await slots.take();
		const newcomer = slots.take().then(() => order.push('new'));
		const back = slots.giveBackWhile(0, async () => undefined).then(() => order.push('back'));
		// the holder gave its slot back for its wait: the waiting newcomer took it
		await newcomer;
		const later = slots.take().then(() => order.push('later'));
		expect(slots.inFlight).toBe(1);
		// the newcomer's slot goes to the holder coming back, not to the work that came later
		slots.give();
		await back;
		slots.give();
		await later;
		slots.give();
		expect(order).toEqual(['new', 'back', 'later']);
		expect(slots.inFlight).toBe(0);
	});

	it('the first failure is thrown after the started tasks ended; nothing starts after it', async () => {
		const started: number[] = [];
		const ended: number[] = [];
		const failure = mapInOrder([0, 1, 2, 3, 4, 5], 2, async (i) => {
			started.push(i);
			await new Promise((resolve) => setTimeout(resolve, i === 1 ? 1 : 10));
			ended.push(i);
			if (i === 1) throw new Error('item 1');
			return i;
		});
		await expect(failure).rejects.toThrow('item 1');
		// item 0 was still running when item 1 failed: it ended before the failure was thrown
		expect(started).toEqual([0, 1]);
		expect(ended.sort()).toEqual([0, 1]);
	});
});

describe('the router: items in flight', () => {
	const original = resources.lead.operations.create;
	let inFlight = 0;
	let maxInFlight = 0;
	afterEach(() => {
		resources.lead.operations.create = original;
	});
	beforeEach(() => {
		inFlight = 0;
		maxInFlight = 0;
	});

	function useStandIn(parallel: boolean) {
		resources.lead.operations.create = {
			description: [],
			parallel,
			execute: async (itemIndex: number) => {
				inFlight++;
				maxInFlight = Math.max(maxInFlight, inFlight);
				await new Promise((resolve) => setTimeout(resolve, 2));
				inFlight--;
				return { itemIndex };
			},
		};
	}
	const items = (n: number) => Array.from({ length: n }, (_, row) => ({ json: { row } }));
	async function runWith(parameters: IDataObject, credentials: IDataObject, n = 80) {
		const { context } = createContext({
			parameters: { resource: 'lead', operation: 'create', ...parameters },
			credentials,
			items: items(n),
		});
		const [output] = await router.call(context);
		expect(output.map((o) => o.pairedItem)).toEqual(
			Array.from({ length: n }, (_, item) => ({ item })),
		);
		return maxInFlight;
	}

	it('without a setting follows the budget: 2 at the standard budget, the cap of 128 with a large one', async () => {
		useStandIn(true);
		expect(await runWith({}, {})).toBe(2);
		maxInFlight = 0;
		expect(await runWith({}, { requestsPerMinute: 60_000, burst: 10_000 }, 200)).toBe(128);
	});

	it('never above the budget: a burst of 5 allows at most 5', async () => {
		useStandIn(true);
		expect(await runWith({}, { requestsPerMinute: 60_000, burst: 5 })).toBeLessThanOrEqual(5);
	});

	it('the setting wins over the budget, up and down', async () => {
		useStandIn(true);
		expect(
			await runWith({ requestsInFlight: 3 }, { requestsPerMinute: 60_000, burst: 10_000 }),
		).toBe(3);
		maxInFlight = 0;
		expect(await runWith({ requestsInFlight: 8 }, {})).toBe(8);
	});

	it('operations that do not declare parallel (those that spend money or reach a person) stay at 1 whatever the budget', async () => {
		useStandIn(false);
		expect(
			await runWith({ requestsInFlight: 8 }, { requestsPerMinute: 60_000, burst: 10_000 }),
		).toBe(1);
		const parallelOperations = Object.entries(resources).flatMap(([resource, module]) =>
			Object.entries(module.operations)
				.filter(([, operation]) => operation.parallel)
				.map(([operation]) => `${resource}.${operation}`),
		);
		resources.lead.operations.create = original;
		expect(parallelOperations.filter((name) => name !== 'lead.create')).toEqual([]);
	});
});

describe('a backoff does not hold a slot', () => {
	const clock = fakeClockPerTest();
	const campaign = { __rl: true, mode: 'id', value: '7' };
	const phone = (i: number) => `+4915100000${String(i).padStart(3, '0')}`;

	it('while an item waits to be sent again, the next items are sent; it comes back before new ones', async () => {
		const sent: string[] = [];
		let refusedOnce = false;
		nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.times(4)
			.reply((_uri, body) => {
				const number = (body as IDataObject).phone_number as string;
				sent.push(number);
				if (number === phone(0) && !refusedOnce) {
					refusedOnce = true;
					return [503, { message: 'Service Unavailable' }, { 'Retry-After': '5' }];
				}
				return [200, { data: { id: sent.length, phone_number: number } }];
			});
		// one slot (the setting), the phone number of each item
		const perItem = [0, 1, 2].map((i) => ({
			resource: 'lead',
			operation: 'create',
			campaignId: campaign,
			phoneNumber: phone(i),
			requestsInFlight: 1,
		}));
		const run = createContext({
			parameters: perItem,
			items: [0, 1, 2].map((i) => ({ json: { i } })),
		});
		const [output] = await router.call(run.context);
		// one slot: item 1 is sent during item 0's 5 s wait, item 0 again before item 2
		expect(sent).toEqual([phone(0), phone(1), phone(0), phone(2)]);
		expect(clock.sleeps).toContain(5000);
		expect(output.map((o) => [o.pairedItem, (o.json as IDataObject).phone_number])).toEqual(
			[0, 1, 2].map((i) => [{ item: i }, phone(i)]),
		);
	});

	it('a 429 keeps the slot: the whole budget waits, the item keeps its turn', async () => {
		const sent: string[] = [];
		let refusedOnce = false;
		nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.times(3)
			.reply((_uri, body) => {
				const number = (body as IDataObject).phone_number as string;
				sent.push(number);
				if (number === phone(0) && !refusedOnce) {
					refusedOnce = true;
					return [429, { message: 'Too Many Requests' }, { 'Retry-After': '2' }];
				}
				return [200, { data: { id: sent.length, phone_number: number } }];
			});
		const perItem = [0, 1].map((i) => ({
			resource: 'lead',
			operation: 'create',
			campaignId: campaign,
			phoneNumber: phone(i),
			requestsInFlight: 1,
		}));
		await router.call(
			createContext({ parameters: perItem, items: [0, 1].map((i) => ({ json: { i } })) }).context,
		);
		expect(sent).toEqual([phone(0), phone(0), phone(1)]);
		expect(clock.sleeps).toContain(2000);
	});
});
