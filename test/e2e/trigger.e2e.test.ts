/**
 * The trigger in a real n8n server: activation registers the inbound webhook
 * at the node's production URL, a completed call posted by the simulator starts
 * exactly one execution with the payload, a forged POST without the secret
 * starts none, a restart registers nothing twice, and deactivation in the
 * running server removes the registration.
 */
const {
	startSimulatorAndHome,
	waitFor,
	triggerOnlyWorkflow,
	rl,
	completeCall,
} = require('../harness/n8n');

const ASSISTANT_ID = 1; // the simulator's inbound assistant

describe('real n8n server: Voice Chat Assistant Trigger', () => {
	let sim: any;
	let home: any;
	let server: any;
	const assistant = () => sim.state.assistants.find((a: { id: number }) => a.id === ASSISTANT_ID);
	const calls = (path: string) =>
		sim.log.filter((e: { method: string; path: string }) => e.method === 'POST' && e.path === path);
	const enableCalls = () => calls('/api/user/assistants/enable-inbound-webhook');
	const disableCalls = () => calls('/api/user/assistants/disable-inbound-webhook');
	const executions = () => home.executions('e2eTriggerWf0001');

	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome());
		await home.importWorkflow(
			triggerOnlyWorkflow(
				'e2eTriggerWf0001',
				{
					webhookId: '0c3f5a8e-6b1d-4e2f-9a7c-1d2e3f4a5b6c',
					parameters: { event: 'inboundCallCompleted', assistantId: rl(ASSISTANT_ID) },
				},
				'Call completed',
			),
		);
		await home.activate('e2eTriggerWf0001');
		server = await home.start();
	});

	afterAll(async () => {
		await server?.stop();
		await sim?.close();
		await home?.cleanup();
	});

	it('activation registers the production URL, with a secret, once', async () => {
		const url = await waitFor(
			'the inbound webhook registration',
			() => assistant().inbound_webhook_url,
		);
		const port = new URL(server.baseUrl).port;
		expect(url).toMatch(
			new RegExp(
				`^http://(localhost|127\\.0\\.0\\.1):${port}/webhook/0c3f5a8e-6b1d-4e2f-9a7c-1d2e3f4a5b6c/webhook\\?assistant_id=1&`,
			),
		);
		expect(url).toMatch(/[?&]secret=[A-Za-z0-9]{16,}/);
		expect(enableCalls()).toHaveLength(1);
	});

	it('a completed call starts exactly one execution whose data is the payload', async () => {
		const completed = await completeCall(sim, {
			assistant_id: ASSISTANT_ID,
			customer_phone: '+4915112345678',
		});
		const delivery = completed.deliveries.find((d: { kind: string }) => d.kind === 'inbound');
		// "Immediately": n8n answers once it has created the run, with the trigger's own body
		expect([delivery.status, delivery.response]).toEqual([200, { received: true }]);
		const rows = await waitFor('one execution', () => {
			const r = executions();
			return r.length >= 1 && r;
		});
		await new Promise((r) => setTimeout(r, 1500));
		expect(executions()).toHaveLength(1);
		const data = home.executionData(rows[0].id);
		expect(data).toContain('+4915112345678');
		expect(data).toContain(String(completed.call.id));
	});

	it('a forged POST without the secret is answered 401 and starts nothing', async () => {
		const url = new URL(assistant().inbound_webhook_url);
		url.searchParams.delete('secret');
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ id: 1, status: 'completed' }),
		});
		expect(res.status).toBe(401);
		await new Promise((r) => setTimeout(r, 1500));
		expect(executions()).toHaveLength(1);
	});

	it('a restart of n8n registers nothing twice', async () => {
		await server.stop();
		server = await home.start({ port: Number(new URL(server.baseUrl).port) });
		await new Promise((r) => setTimeout(r, 4000));
		expect(enableCalls()).toHaveLength(1);
		expect(assistant().inbound_webhook_url).toMatch(/secret=/);
	});

	it("deactivation in the running server leaves the assistant's inbound webhook disabled, and later calls start nothing", async () => {
		const registered = assistant().inbound_webhook_url;
		const rest = await home.rest(server);
		const workflow = await rest.deactivate('e2eTriggerWf0001');
		expect(workflow.active).toBe(false);
		await waitFor('the inbound webhook removal', () => disableCalls().length >= 1);
		expect(disableCalls()).toHaveLength(1);
		expect(disableCalls()[0].body).toMatchObject({ assistant_id: ASSISTANT_ID });
		expect(disableCalls()[0].status).toBe(200);
		expect(assistant().inbound_webhook_url).toBeNull();

		const completed = await completeCall(sim, {
			assistant_id: ASSISTANT_ID,
			customer_phone: '+4915199999999',
		});
		expect(completed.deliveries.filter((d: { kind: string }) => d.kind === 'inbound')).toEqual([]);
		// the old URL, secret included, no longer starts the workflow either
		const replay = await fetch(registered, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ id: 99, status: 'completed' }),
		});
		expect(replay.status).toBe(404);
		await new Promise((r) => setTimeout(r, 1500));
		expect(executions()).toHaveLength(1);
	});
});

export {};
