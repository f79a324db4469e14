/**
 * Polls that overlap: n8n's default poller starts a poll at each Poll Time
 * without waiting for the previous one (`void executePollTrigger()`), with the
 * same context and the same static data. A poll slower than its interval must
 * not make a call come out twice: the polls that start meanwhile emit
 * nothing and touch nothing, and the next poll after the slow one goes on.
 */
import nock from 'nock';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { FLIGHT_TAKEOVER_MS } from '../../../nodes/VoiceChatAssistantPollingTrigger/singleFlight';
import { TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();

const parameters = {
	event: 'callEnded',
	assistantId: { __rl: true, mode: 'list', value: '2' },
	callFilters: { type: 'outbound' },
};
const QUERY = { assistant_id: 2, type: 'outbound', per_page: 100, page: 1 };

/** One poll context for the activation, as n8n creates it; `logs` records what the node logs. */
function activation(staticData: IDataObject, workflowId = 'wf-1') {
	const { context } = createContext({ parameters, staticData });
	const base = context as unknown as IDataObject & {
		getNodeParameter: (n: string, i: number, f?: unknown) => unknown;
	};
	const logs: string[] = [];
	const log = (level: string) => (message: string) => logs.push(`${level}: ${message}`);
	let mode = 'trigger';
	const ctx = {
		...base,
		getMode: () => mode,
		getWorkflow: () => ({ id: workflowId, name: 'Test', active: true }),
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
		getNodeParameter: (name: string, fallback?: unknown) =>
			base.getNodeParameter(name, 0, fallback),
	} as unknown as IPollFunctions;
	return { ctx, logs, setMode: (m: string) => (mode = m) };
}

const call = (id: number, status = 'completed') => ({ id, status, transcript: `call ${id}` });
const answer = (data: object[]) => ({
	data,
	current_page: 1,
	next_page_url: null,
	total: data.length,
});
const ids = (output: unknown) =>
	((output as Array<Array<{ json: IDataObject }>> | null)?.[0] ?? []).map((item) => item.json.id);

/** A gate the list answer waits behind: the poll stays in flight until `open()`. */
function gate() {
	let open!: () => void;
	const opened = new Promise<void>((resolve) => (open = resolve));
	return { open, opened };
}

/** A list answer held back until `open()`; `asked()` whether the poll has sent its request. */
function heldAnswer(data: object[]) {
	const held = gate();
	let asked = 0;
	nock(TEST_BASE_URL)
		.get('/api/user/calls')
		.query(QUERY)
		.reply(async () => {
			asked++;
			await held.opened;
			return [200, answer(data)];
		});
	return { open: held.open, asked: () => asked };
}

/** Lets the event loop run until `count` requests reached the interceptors. */
async function untilRequests(seen: () => number, count: number) {
	for (let i = 0; i < 200 && seen() < count; i++) await new Promise((r) => setImmediate(r));
	expect(seen()).toBeGreaterThanOrEqual(count);
}

describe('Polling trigger: polls that overlap', () => {
	const clock = fakeClockPerTest();

	async function activated() {
		const staticData: IDataObject = {};
		const run = activation(staticData);
		nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query(QUERY)
			.reply(200, answer([call(10)]));
		expect(await node.poll.call(run.ctx)).toBeNull();
		return { staticData, ...run };
	}

	it.each([2, 3])(
		'%i polls at once (the first one slow): each new call is emitted once, by the slow poll',
		async (overlapping) => {
			const { ctx, staticData, logs } = await activated();
			const slow = gate();
			let requests = 0;
			// every poll that asks gets the same answer once the gate opens: calls 11 and 12 ended
			nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query(QUERY)
				.times(overlapping)
				.reply(async () => {
					requests++;
					await slow.opened;
					return [200, answer([call(12), call(11), call(10)])];
				});

			const first = node.poll.call(ctx);
			await untilRequests(() => requests, 1);
			// the next Poll Times come while the first poll waits for its answer
			let settledBeforeAnswer = 0;
			const later = Array.from({ length: overlapping - 1 }, () =>
				node.poll.call(ctx).then((output) => {
					settledBeforeAnswer += requests === 1 ? 1 : 0;
					return output;
				}),
			);
			await untilRequests(() => requests, 1);
			for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
			slow.open();
			const outputs = await Promise.all([first, ...later]);

			const emitted = outputs.flatMap(ids);
			expect(emitted).toEqual([11, 12]);
			expect(requests).toBe(1);
			// the later polls returned at once, without waiting for the slow one
			expect(settledBeforeAnswer).toBe(overlapping - 1);
			expect(logs.filter((l) => l.includes('the previous poll is still running'))).toHaveLength(
				overlapping - 1,
			);
			expect(logs.every((l) => !l.includes('Bearer'))).toBe(true);

			// the next poll after the slow one goes on from where it got: nothing again, then call 13
			nock.cleanAll();
			nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query(QUERY)
				.reply(200, answer([call(12), call(11), call(10)]))
				.get('/api/user/calls')
				.query(QUERY)
				.reply(200, answer([call(13), call(12), call(11), call(10)]));
			expect(await node.poll.call(ctx)).toBeNull();
			expect(ids(await node.poll.call(ctx))).toEqual([13]);
			expect(nock.isDone()).toBe(true);
			expect(JSON.stringify(staticData)).toContain('"maxId":13');
		},
	);

	it('a poll that starts while another runs touches no static data', async () => {
		const { ctx, staticData } = await activated();
		const slow = heldAnswer([call(11), call(10)]);
		const first = node.poll.call(ctx);
		await untilRequests(slow.asked, 1);
		(staticData as { __dataChanged?: boolean }).__dataChanged = false;
		const before = JSON.stringify(staticData);
		expect(await node.poll.call(ctx)).toBeNull();
		expect(JSON.stringify(staticData)).toBe(before);
		expect((staticData as { __dataChanged?: boolean }).__dataChanged).toBe(false);
		slow.open();
		expect(ids(await first)).toEqual([11]);
	});

	it('Fetch Test Event still works while a poll runs, and another workflow polls on its own', async () => {
		const { ctx } = await activated();
		const slow = heldAnswer([call(11), call(10)]);
		const first = node.poll.call(ctx);
		await untilRequests(slow.asked, 1);

		const manual = activation({});
		manual.setMode('manual');
		nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query(QUERY)
			.reply(200, answer([call(10)]));
		expect(ids(await node.poll.call(manual.ctx))).toEqual([10]);

		const other = activation({}, 'wf-2');
		nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query(QUERY)
			.reply(200, answer([call(10)]));
		expect(await node.poll.call(other.ctx)).toBeNull();
		expect(other.logs.some((l) => l.includes('still running'))).toBe(false);

		slow.open();
		expect(ids(await first)).toEqual([11]);
	});

	it(`a poll still running after ${FLIGHT_TAKEOVER_MS / 60_000} min is taken over: the later poll emits, the old one emits and writes nothing`, async () => {
		const { ctx, staticData, logs } = await activated();
		const stuck = heldAnswer([call(11), call(10)]);
		const old = node.poll.call(ctx);
		await untilRequests(stuck.asked, 1);
		clock.advance(FLIGHT_TAKEOVER_MS);
		nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query(QUERY)
			.reply(200, answer([call(11), call(10)]));
		expect(ids(await node.poll.call(ctx))).toEqual([11]);
		expect(logs.some((l) => l.startsWith('warn:') && l.includes('takes over'))).toBe(true);
		const after = JSON.stringify(staticData);
		stuck.open();
		expect(await old).toBeNull();
		expect(JSON.stringify(staticData)).toBe(after);
	});
});
