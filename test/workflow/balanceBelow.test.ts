/**
 * Balance Below in a real workflow (n8n-core's PollContext, the workflow's
 * static data) against the simulator, whose account balance the test sets
 * (`POST /__sim/user`): one item per crossing, one request per poll, nothing
 * repeated across a restart of n8n's default poller (the static data saved
 * only when a poll emits), Fetch Test Event with the current balance, and a
 * refused key named as the service answers it.
 */
import type { IDataObject } from 'n8n-workflow';

import { DefaultPoller, emittedJson } from './helpers/polling';
import { TestWorkflow, TYPES } from './helpers/runWorkflow';
import type { Simulator } from './helpers/workflows';
import {
	control,
	serviceNode,
	serviceRequest,
	simCredentials,
	simulatorForTests,
	standalone,
} from './helpers/workflows';

const NODE = 'Balance Below';

const workflow = (threshold: number) =>
	standalone(
		serviceNode(NODE, TYPES.pollingTrigger, { event: 'balanceBelow', balanceThreshold: threshold }),
	);

/** n8n's default poller of Balance Below with `threshold`; `credentials` change the credential's fields. */
const poller = (sim: Simulator, threshold: number, credentials: IDataObject = {}) =>
	new DefaultPoller(workflow(threshold), { credentials: simCredentials(sim, credentials) });

/** One poll: the items it emitted, and the requests it sent. */
async function polled(sim: Simulator, n8n: DefaultPoller) {
	const before = sim.log.length;
	const items = await n8n.poll(NODE);
	const requests = sim.log
		.slice(before)
		.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
	return { items, requests };
}

/** An item of Balance Below with the threshold of 10 and the account's currency. */
const belowItem = (fields: IDataObject) => ({ threshold: 10, currency: 'USD', ...fields });

const setBalance = (sim: Simulator, total_balance: number) =>
	control(sim, 'user', { total_balance });

describe('Balance Below in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });

	it('50 → 9 with a threshold of 10: one item; 9 for three more polls: none; 20 then 5: one more; a restart repeats nothing', async () => {
		await setBalance(sim, 50);
		const n8n = poller(sim, 10);
		expect(await polled(sim, n8n)).toEqual({ items: [], requests: ['GET /api/user/me 200'] });

		await setBalance(sim, 9);
		const crossed = await polled(sim, n8n);
		expect(crossed.requests).toEqual(['GET /api/user/me 200']);
		expect(crossed.items).toEqual([
			belowItem({
				balance: 9,
				previous_balance: 50,
				below: true,
				below_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
			}),
		]);
		for (let i = 0; i < 3; i++) expect(await n8n.poll(NODE)).toEqual([]);

		n8n.restart();
		expect(await n8n.poll(NODE)).toEqual([]);

		await setBalance(sim, 20);
		expect(await n8n.poll(NODE)).toEqual([]);
		await setBalance(sim, 5);
		expect(await n8n.poll(NODE)).toEqual([
			expect.objectContaining({ balance: 5, previous_balance: 20, threshold: 10 }),
		]);
		n8n.restart();
		const after = await polled(sim, n8n);
		expect(after).toEqual({ items: [], requests: ['GET /api/user/me 200'] });
	});

	it('the balance spent by a call counts: a widget chat that takes it below the threshold is emitted', async () => {
		await setBalance(sim, 0.015);
		const n8n = poller(sim, 0.01);
		expect(await n8n.poll(NODE)).toEqual([]);
		// a widget chat costs 0.01 USD per user message (SPEC)
		const created = await serviceRequest(sim, 'POST', '/api/conversations', {
			assistant_id: sim.state.assistants[0].uuid,
			type: 'widget',
		});
		expect(created.status).toBe(200);
		const { conversation_id: id } = (await created.json()) as IDataObject;
		const sent = await serviceRequest(sim, 'POST', `/api/conversations/${String(id)}/messages`, {
			message: 'Hello',
		});
		expect(sent.status).toBe(200);
		const items = await n8n.poll(NODE);
		expect(items).toEqual([expect.objectContaining({ previous_balance: 0.015, below: true })]);
		expect(Number(items[0].balance)).toBeLessThan(0.01);
	});

	it('Fetch Test Event shows the current balance whatever the threshold, and remembers nothing', async () => {
		await setBalance(sim, 25.5);
		const test = new TestWorkflow(workflow(10), { credentials: simCredentials(sim) });
		expect(emittedJson(await test.poll(NODE, true))).toEqual([
			belowItem({ balance: 25.5, previous_balance: null, below: false, below_since: null }),
		]);
		expect(test.staticData[`node:${NODE}`] ?? {}).toEqual({});
	});

	it('a refused key fails the poll with the service message, not the key', async () => {
		const n8n = poller(sim, 10, { apiKey: 'revoked-key-0000000000' });
		const error = await n8n.poll(NODE).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error).toBeDefined();
		const shown = `${error!.message} ${(error as { description?: string }).description ?? ''}`;
		expect(shown).toMatch(/401|Unauthenticated|invalid/i);
		expect(shown).not.toContain('revoked-key-0000000000');
	});
});
