/**
 * The packed package in a real n8n: Account → Get Profile against the
 * simulator, with the right key and with a wrong one.
 */
const { createN8nHome, outputOf, profileWorkflow } = require('../harness/n8n');
const { startSimulator } = require('../simulator/server');

const GOOD_KEY = 'sim-test-key-0123456789';
const WRONG_KEY = 'wrong-key-MUST-NOT-LEAK-987654321';

describe('real n8n: Account → Get Profile', () => {
	let sim: { url: string; close(): Promise<void>; state: { user: Record<string, unknown> } };
	let home: any;
	let server: any;

	beforeAll(async () => {
		sim = await startSimulator({ port: 0, rateLimit: false });
		home = await createN8nHome();
		await home.importCredentials([
			{
				id: 'goodCredential01',
				name: 'goodCredential01',
				type: 'voiceChatAssistantApi',
				data: { apiKey: GOOD_KEY, baseUrl: `${sim.url}/api/` },
			},
			{
				id: 'wrongCredential1',
				name: 'wrongCredential1',
				type: 'voiceChatAssistantApi',
				data: { apiKey: WRONG_KEY, baseUrl: sim.url },
			},
		]);
		// one n8n for the file: each workflow is saved and run in it as from the editor
		server = await home.start();
	}, 180_000);

	afterAll(async () => {
		await sim?.close();
		await home?.cleanup();
	});

	it('returns the simulator profile', async () => {
		const id = await home.createWorkflow(
			server,
			profileWorkflow('e2eProfileGood01', 'goodCredential01'),
		);
		const result = await home.run(server, id);
		expect(result.run).toBeDefined();
		const { items, error } = outputOf(result.run, 'Get Profile');
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			name: sim.state.user.name,
			email: sim.state.user.email,
			total_balance: sim.state.user.total_balance,
		});
		expect(result.why).toBeUndefined();
	});

	it('with a wrong key fails with the service 401 text, and the key is nowhere in the output', async () => {
		const id = await home.createWorkflow(
			server,
			profileWorkflow('e2eProfileWrong1', 'wrongCredential1'),
		);
		const result = await home.run(server, id);
		expect(result.ok).toBe(false);
		expect(result.raw).toContain('Unauthenticated.');
		expect(`${result.raw}\n${result.stderr}`).not.toContain(WRONG_KEY);
		const { error } = outputOf(result.run, 'Get Profile');
		expect(error?.message).toBe('Unauthenticated.');
	});
});

export {};
