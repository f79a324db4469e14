/**
 * Call: every operation, run as real workflows (n8n-core) against the
 * simulator, and Get Many's Return All over 250 calls.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { byId, control, simulatorForTests } from '../helpers/workflows';

const { exercised, run, operations } = operationRunner();

describe('Call: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const calls = operations(sim, 'call');

	it('Call: Make, Get, Get Many with filters and a limit', async () => {
		const [made] = await calls('make', { assistantId: byId(2), phoneNumber: '+4915112345678' });
		expect(made.status).toBe('initiated');
		expect((await calls('get', { callId: String(made.call_id) }))[0].id).toBe(made.call_id);
		const inbound = await calls('getMany', { returnAll: true, filters: { type: 'inbound' } });
		expect(inbound.length).toBeGreaterThan(0);
		expect(inbound.every((c) => c.type === 'inbound')).toBe(true);
		expect(await calls('getMany', { returnAll: false, limit: 2, filters: {} })).toHaveLength(2);
	});

	it('Call → Delete removes the call with its transcript; a second delete fails', async () => {
		const [call] = sim.state.calls;
		expect(await calls('delete', { callId: String(call.id) })).toEqual([
			{ deleted: true, id: call.id, message: 'Call deleted successfully' },
		]);
		expect(sim.state.calls.map((c: any) => c.id)).not.toContain(call.id);
		await expect(calls('get', { callId: String(call.id) })).rejects.toThrow('Call not found');
		await expect(calls('delete', { callId: String(call.id) })).rejects.toThrow(
			'Call not found or does not belong to the authenticated user',
		);
	});

	it('ran every operation of Call', () => {
		expect(ownRuns('call', exercised)).toEqual([...RESOURCE_FILES.call].sort());
	});
});

describe('Call: Get Many, Return All over 250 calls', () => {
	const sim = simulatorForTests();

	it('returns all 250 calls, newest first, in exactly 3 requests of 100', async () => {
		sim.reset();
		const seeded = sim.state.calls.length;
		await control(sim, 'calls/seed', { count: 250 - seeded });
		expect(sim.state.calls).toHaveLength(250);
		const before = sim.log.length;

		const items: INodeExecutionData[] = await run(sim, {
			resource: 'call',
			operation: 'getMany',
			returnAll: true,
			filters: {},
		});

		expect(items).toHaveLength(250);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(250);
		// newest first, as the service lists them
		const times = items.map((i) => Date.parse(`${String(i.json.created_at).replace(' ', 'T')}Z`));
		expect(times.every((t) => Number.isFinite(t))).toBe(true);
		expect(times).toEqual([...times].sort((a, b) => b - a));
		expect(items.map((i) => i.json.id).sort()).toEqual(
			sim.state.calls.map((c: any) => c.id).sort(),
		);
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		const requests = sim.log.slice(before).filter((e) => e.path === '/api/user/calls');
		expect(requests.map((e) => [e.method, e.query.page, e.query.per_page, e.status])).toEqual([
			['GET', '1', '100', 200],
			['GET', '2', '100', 200],
			['GET', '3', '100', 200],
		]);
		expect(sim.log.slice(before)).toHaveLength(3);
	});
});
