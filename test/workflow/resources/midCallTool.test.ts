/**
 * Mid Call Tool: every operation, run as real workflows (n8n-core) against
 * the simulator.
 */
import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { byId, simulatorForTests } from '../helpers/workflows';

const { exercised, operations } = operationRunner();

describe('Mid Call Tool: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const tools = operations(sim, 'tool');

	it('Mid Call Tool: Create, Get, Get Many, Update, Delete', async () => {
		const [tool] = await tools('create', {
			name: 'check_stock',
			description: 'Checks the stock',
			endpoint: 'https://example.com/stock',
			method: 'GET',
			additionalFields: {
				timeout: 5,
				schema: { values: [{ name: 'sku', type: 'string', description: 'Article number' }] },
			},
		});
		const ref = byId(tool.id);
		expect((await tools('get', { toolId: ref }))[0].name).toBe('check_stock');
		expect((await tools('getMany', { returnAll: true })).map((t) => t.id)).toContain(tool.id);
		expect((await tools('update', { toolId: ref, updateFields: { timeout: 20 } }))[0].timeout).toBe(
			20,
		);
		await tools('delete', { toolId: ref });
		await expect(tools('get', { toolId: ref })).rejects.toThrow('Tool not found');
	});

	it('ran every operation of Mid Call Tool', () => {
		expect(ownRuns('midCallTool', exercised)).toEqual([...RESOURCE_FILES.midCallTool].sort());
	});
});
