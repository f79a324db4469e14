/**
 * Balance Below in a real workflow (n8n-core's PollContext, the workflow's
 * static data) against the simulator, whose account balance the test sets
 * (`POST /__sim/user`): one item per crossing, one request per poll, nothing
 * repeated across a restart of n8n's default poller (the static data saved
 * only when a poll emits), Fetch Test Event with the current balance, and a
 * refused key named as the service answers it.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { restartProcessForTests } from '../../nodes/VoiceChatAssistantPollingTrigger/events/process';
import { TestWorkflow, TYPES } from './helpers/runWorkflow';
import type { Simulator } from './helpers/workflows';
import { SIM_API_KEY, control, simCredentials, simulatorForTests } from './helpers/workflows';

const NODE = 'Balance Below';

function workflow(threshold: number, staticData?: IDataObject) {
	return {
		nodes: [
			{
				name: NODE,
				type: TYPES.pollingTrigger,
				parameters: { event: 'balanceBelow', balanceThreshold: threshold },
				credentials: { voiceChatAssistantApi: { id: 'credential-1', name: 'Simulator account' } },
			},
		],
		connections: {},
		...(staticData ? { staticData } : {}),
	};
}

const json = (output: INodeExecutionData[][] | null) =>
	(output?.[0] ?? []).map((item) => item.json);

/** n8n's default poller: the static data is saved at activation and when a poll emits. */
class N8n {
	test: TestWorkflow;
	private saved: IDataObject = {};
	constructor(
		private sim: Simulator,
		private threshold: number,
		private credentials: IDataObject = {},
	) {
		this.test = this.open({}, 'activate');
	}

	private open(staticData: IDataObject, activation: 'activate' | 'init') {
		return new TestWorkflow(workflow(this.threshold, staticData), {
			credentials: { ...simCredentials(this.sim), ...this.credentials },
			activation,
		});
	}

	async poll() {
		const before = this.sim.log.length;
		const output = await this.test.poll(NODE);
		if (output !== null || Object.keys(this.saved).length === 0)
			this.saved = JSON.parse(JSON.stringify(this.test.staticData));
		const requests = this.sim.log
			.slice(before)
			.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
		return { items: json(output), requests };
	}

	restart() {
		restartProcessForTests();
		this.test = this.open(JSON.parse(JSON.stringify(this.saved)), 'init');
	}
}

const setBalance = (sim: Simulator, total_balance: number) =>
	control(sim, 'user', { total_balance });

describe('Balance Below in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });

	it('50 → 9 with a threshold of 10: one item; 9 for three more polls: none; 20 then 5: one more; a restart repeats nothing', async () => {
		await setBalance(sim, 50);
		const n8n = new N8n(sim, 10);
		expect(await n8n.poll()).toEqual({ items: [], requests: ['GET /api/user/me 200'] });

		await setBalance(sim, 9);
		const crossed = await n8n.poll();
		expect(crossed.requests).toEqual(['GET /api/user/me 200']);
		expect(crossed.items).toEqual([
			{
				balance: 9,
				threshold: 10,
				previous_balance: 50,
				below: true,
				below_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
				currency: 'USD',
			},
		]);
		for (let i = 0; i < 3; i++) expect((await n8n.poll()).items).toEqual([]);

		n8n.restart();
		expect((await n8n.poll()).items).toEqual([]);

		await setBalance(sim, 20);
		expect((await n8n.poll()).items).toEqual([]);
		await setBalance(sim, 5);
		expect((await n8n.poll()).items).toEqual([
			expect.objectContaining({ balance: 5, previous_balance: 20, threshold: 10 }),
		]);
		n8n.restart();
		const after = await n8n.poll();
		expect(after).toEqual({ items: [], requests: ['GET /api/user/me 200'] });
	});

	it('the balance spent by a call counts: a widget chat that takes it below the threshold is emitted', async () => {
		await setBalance(sim, 0.015);
		const n8n = new N8n(sim, 0.01);
		expect((await n8n.poll()).items).toEqual([]);
		// a widget chat costs 0.01 USD per user message (SPEC)
		const created = await fetch(`${sim.url}/api/conversations`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${SIM_API_KEY}`,
				'content-type': 'application/json',
				accept: 'application/json',
			},
			body: JSON.stringify({ assistant_id: sim.state.assistants[0].uuid, type: 'widget' }),
		});
		expect(created.status).toBe(200);
		const { conversation_id: id } = (await created.json()) as IDataObject;
		const sent = await fetch(`${sim.url}/api/conversations/${String(id)}/messages`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${SIM_API_KEY}`,
				'content-type': 'application/json',
				accept: 'application/json',
			},
			body: JSON.stringify({ message: 'Hello' }),
		});
		expect(sent.status).toBe(200);
		const { items } = await n8n.poll();
		expect(items).toEqual([expect.objectContaining({ previous_balance: 0.015, below: true })]);
		expect(Number(items[0].balance)).toBeLessThan(0.01);
	});

	it('Fetch Test Event shows the current balance whatever the threshold, and remembers nothing', async () => {
		await setBalance(sim, 25.5);
		const test = new TestWorkflow(workflow(10), { credentials: simCredentials(sim) });
		expect(json(await test.poll(NODE, true))).toEqual([
			{
				balance: 25.5,
				threshold: 10,
				previous_balance: null,
				below: false,
				below_since: null,
				currency: 'USD',
			},
		]);
		expect(test.staticData[`node:${NODE}`] ?? {}).toEqual({});
	});

	it('a refused key fails the poll with the service message, not the key', async () => {
		const n8n = new N8n(sim, 10, { apiKey: 'revoked-key-0000000000' });
		const error = await n8n.poll().then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error).toBeDefined();
		const shown = `${error!.message} ${(error as { description?: string }).description ?? ''}`;
		expect(shown).toMatch(/401|Unauthenticated|invalid/i);
		expect(shown).not.toContain('revoked-key-0000000000');
	});
});
