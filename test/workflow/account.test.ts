import { runWorkflow } from './helpers/runWorkflow';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSimulator } = require('../simulator/server');

const KEY = 'sim-test-key-0123456789';

function workflow(nodeParameters: Record<string, unknown>, items?: unknown[], extra: Record<string, unknown> = {}) {
	const nodes: any[] = [{ id: '1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }];
	const connections: any = {};
	let previous = 'Start';
	if (items) {
		nodes.push({ id: '2', name: 'Rows', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify(items) } });
		connections.Start = { main: [[{ node: 'Rows', type: 'main', index: 0 }]] };
		previous = 'Rows';
	}
	nodes.push({
		id: '3',
		name: 'Service',
		type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistant',
		typeVersion: 1,
		position: [400, 0],
		parameters: nodeParameters,
		credentials: { voiceChatAssistantApi: { id: 'cred', name: 'sim' } },
		...extra,
	});
	connections[previous] = { main: [[{ node: 'Service', type: 'main', index: 0 }]] };
	return { nodes, connections };
}

describe('workflows in-process (n8n-core) against the simulator', () => {
	let sim: any;
	beforeAll(async () => {
		sim = await startSimulator({ port: 0, rateLimit: false });
	});
	afterAll(async () => {
		await sim.close();
	});

	it('Account → Get Profile returns the simulator profile', async () => {
		const { outputOf, errorOf } = await runWorkflow(workflow({ resource: 'account', operation: 'getProfile' }), {
			apiKey: KEY,
			baseUrl: sim.url,
		});
		expect(errorOf('Service')).toBeUndefined();
		expect(outputOf('Service')).toEqual([
			{ json: { name: 'Sim Tester', email: 'sim.tester@example.com', total_balance: 25.5 }, pairedItem: { item: 0 } },
		]);
	});

	it('Account → Get API Keys gives one item per key, paired to the input', async () => {
		const { outputOf } = await runWorkflow(workflow({ resource: 'account', operation: 'getApiKeys' }), { apiKey: KEY, baseUrl: sim.url });
		const items = outputOf('Service');
		expect(items.map((i) => i.json.id)).toEqual(sim.state.apiKeys.map((k: { id: number }) => k.id));
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) {
			expect(Object.keys(item.json).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name']);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	it('a wrong key fails with the service 401 text and the key appears nowhere', async () => {
		const wrong = 'wrong-key-SHOULD-NOT-APPEAR-42';
		const { run, errorOf } = await runWorkflow(workflow({ resource: 'account', operation: 'getProfile' }), { apiKey: wrong, baseUrl: sim.url });
		expect(errorOf('Service')?.message).toBe('Unauthenticated.');
		expect(JSON.stringify(run)).not.toContain(wrong);
	});

	it('three input items give three outputs, each paired to its input', async () => {
		const { outputOf } = await runWorkflow(workflow({ resource: 'account', operation: 'getProfile' }, [{ a: 1 }, { a: 2 }, { a: 3 }]), {
			apiKey: KEY,
			baseUrl: `${sim.url}/api`,
		});
		expect(outputOf('Service').map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});
