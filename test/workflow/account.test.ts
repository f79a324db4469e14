/**
 * Account operations in real workflows (n8n-core) against the simulator, and
 * what a wrong API key looks like: the service's 401 text, the key nowhere.
 */
import { setupN8nCore } from './helpers/n8nCore';
import { runWorkflow, serializeDeep, TestWorkflow } from './helpers/runWorkflow';
import { credentialTypes, resolveWithCredentials } from './helpers/credentialsHelper';
import {
	actionWorkflow,
	runAction,
	SERVICE,
	SIM_API_KEY,
	simCredentials,
	simulatorForTests,
} from './helpers/workflows';

const PROFILE = { resource: 'account', operation: 'getProfile' };

describe('Account in a workflow', () => {
	const sim = simulatorForTests();

	it('Manual Trigger → Account: Get Profile returns the simulator profile, with the Bearer key of the credential', async () => {
		const test = new TestWorkflow(actionWorkflow(PROFILE), { credentials: simCredentials(sim) });
		const before = sim.log.length;
		const result = await test.run();

		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(result.executionOrder).toEqual(['When clicking "Execute workflow"', SERVICE]);
		expect(result.outputOf(SERVICE)).toEqual([
			{
				json: { name: 'Sim Tester', email: 'sim.tester@example.com', total_balance: 25.5 },
				pairedItem: { item: 0 },
			},
		]);
		// one request with the Bearer key of the credential (the simulator answers 401 to any other): the header of its
		// `authenticate` definition, built by the transport once per node run from the credential n8n decrypted, not by
		// n8n's helper again for every request
		expect(
			sim.log.slice(before).map((e) => [e.method, e.path, e.status, e.headers.authorization]),
		).toEqual([['GET', '/api/user/me', 200, 'Bearer ***']]);
		expect(test.credentialsHelper.authenticated).toEqual([]);
	});

	it('Account: Get API Keys gives one item per key, each paired to the input item', async () => {
		const { outputOf } = await runAction(sim, { resource: 'account', operation: 'getApiKeys' });
		const items = outputOf(SERVICE);
		expect(items.map((i) => i.json.id)).toEqual(sim.state.apiKeys.map((k: { id: number }) => k.id));
		for (const item of items) {
			expect(Object.keys(item.json).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name']);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	it('three input rows give three profiles, each paired to its row; a base URL ending in /api works', async () => {
		const { outputOf } = await runAction(
			sim,
			PROFILE,
			{ rows: [{ a: 1 }, { a: 2 }, { a: 3 }] },
			{ baseUrl: `${sim.url}/api/` },
		);
		expect(outputOf(SERVICE).map((i) => [i.json.email, i.pairedItem])).toEqual([
			['sim.tester@example.com', { item: 0 }],
			['sim.tester@example.com', { item: 1 }],
			['sim.tester@example.com', { item: 2 }],
		]);
	});

	it('pinned input items (inputItems) feed the node like rows do', async () => {
		const { outputOf } = await runWorkflow(actionWorkflow(PROFILE), {
			credentials: simCredentials(sim),
			inputItems: [{ row: 1 }, { row: 2 }],
		});
		expect(outputOf(SERVICE).map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('a wrong API key fails with the service 401 text, and the key appears nowhere', async () => {
		const wrongKey = 'wrong-key-MUST-NOT-LEAK-5f3a9c';
		const env = await setupN8nCore();
		const logsBefore = env.logs.length;
		const reportsBefore = env.reportedErrors.length;
		const result = await runAction(sim, PROFILE, {}, { apiKey: wrongKey });

		expect(result.status).toBe('error');
		const error = result.errorOf(SERVICE)!;
		expect(error).toBeDefined();
		expect(error.message).toBe('Unauthenticated.');
		expect(String((error as { httpCode?: unknown }).httpCode)).toBe('401');
		expect(result.error?.message).toBe('Unauthenticated.');
		expect(result.outputOf(SERVICE)).toEqual([]);
		expect(sim.log.at(-1)).toMatchObject({ path: '/api/user/me', status: 401 });

		// the whole result (what n8n saves as the execution), errors with all their own properties
		// (stack, cause, context...), what was logged and what went to the error reporter (Sentry in n8n)
		const reported = env.reportedErrors.slice(reportsBefore);
		expect(reported.length).toBeGreaterThan(0);
		const everything = serializeDeep({ result, error, logs: env.logs.slice(logsBefore), reported });
		expect(everything).toContain('Unauthenticated.');
		expect(everything).not.toContain(wrongKey);
		expect(everything).not.toContain(wrongKey.slice(0, 16));
	});

	it('with Continue On Fail, the 401 becomes an error item paired to its input', async () => {
		const wrongKey = 'wrong-key-MUST-NOT-LEAK-77b1';
		const result = await runAction(
			sim,
			PROFILE,
			{ node: { onError: 'continueRegularOutput' } },
			{ apiKey: wrongKey },
		);
		expect(result.status).toBe('success');
		const [item] = result.outputOf(SERVICE);
		expect(item.json).toMatchObject({ error: 'Unauthenticated.', httpCode: '401' });
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(serializeDeep(result)).not.toContain(wrongKey);
	});

	it("the credential's test request, resolved as n8n resolves it, passes with the key and fails without it", async () => {
		const type = credentialTypes.voiceChatAssistantApi;
		const test = new TestWorkflow(actionWorkflow(PROFILE), { credentials: simCredentials(sim) });
		const node = test.node(SERVICE);
		const send = async (credentials: Record<string, string>) => {
			const resolve = (value: string) =>
				resolveWithCredentials(test.workflow, node, value, credentials);
			const request = type.test!.request;
			const url = `${resolve(String(request.baseURL))}${request.url}`;
			const headers = { ...(request.headers as Record<string, string>) };
			for (const [name, value] of Object.entries(
				(type.authenticate as { properties: { headers: Record<string, string> } }).properties
					.headers,
			)) {
				headers[name] = String(resolve(value));
			}
			return { url, status: (await fetch(url, { headers })).status };
		};
		expect(await send({ apiKey: SIM_API_KEY, baseUrl: ` ${sim.url}/api// ` })).toEqual({
			url: `${sim.url}/api/user/me`,
			status: 200,
		});
		expect((await send({ apiKey: 'not-the-key', baseUrl: sim.url })).status).toBe(401);
	});
});
