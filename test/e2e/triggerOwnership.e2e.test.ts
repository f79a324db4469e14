/**
 * Webhook ownership in a real `n8n start` server against the simulator, which
 * keeps each assistant's post-call URL and settings:
 * - two workflows on one assistant: deactivating the one that does not hold the
 *   URL leaves the holder receiving calls, also after a restart;
 * - a foreign URL with its settings is back after deactivation; "Fail
 *   Activation" fails naming its host;
 * - listening for a test event and stopping: the production URL is back and
 *   calls reach the published workflow;
 * - the chain F → A → B, deactivating A, then B: B receives while active, F at the end.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const {
	startSimulatorAndHome,
	waitFor,
	triggerOnlyWorkflow,
	rl,
	completeCall: endCall,
	addAssistant: copyAssistant,
} = require('../harness/n8n');

const EVENT = 'callCompleted';

/** A receiver outside n8n (the user's own CRM endpoint): records what it is sent. */
async function startReceiver() {
	const received: Array<{ url: string; body: string }> = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => {
			received.push({ url: req.url ?? '', body });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"crm":"ok"}');
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm/hook?token=crm-token`;
	return { url, received, close: () => new Promise((r) => server.close(r)) };
}

describe('real n8n server: the trigger never takes a webhook away', () => {
	let sim: any;
	let home: any;
	let server: any;
	let rest: any;
	let crm: Awaited<ReturnType<typeof startReceiver>>;
	const assistant = (id: number) => sim.state.assistants.find((a: { id: number }) => a.id === id);
	const executions = (workflowId: string): number =>
		home.queryDb(`select count(*) as n from execution_entity where workflowId = '${workflowId}'`)[0]
			.n;
	const webhookOf = (workflowId: string) => `/webhook/${workflowId}-hook/webhook`;

	/** A new assistant in the simulator (a copy of the seeded one) with the given webhook settings. */
	function addAssistant(id: number, settings: Record<string, unknown> = {}) {
		copyAssistant(sim, 2, {
			id,
			uuid: `0000000${id}-0000-4000-8000-000000000000`.slice(-36),
			name: `Ownership ${id}`,
			phone_number_id: null,
			is_webhook_active: false,
			webhook_url: null,
			send_webhook_only_on_completed: true,
			include_recording_in_webhook: true,
			inbound_webhook_url: null,
			...settings,
		});
	}

	function trigger(workflowId: string, assistantId: number, extra: Record<string, unknown> = {}) {
		const parameters = {
			event: EVENT,
			assistantId: rl(assistantId),
			options: { onlyCompletedCalls: true, includeRecording: true },
			...extra,
		};
		const name = `Calls of ${assistantId} (${workflowId})`;
		return triggerOnlyWorkflow(workflowId, { webhookId: `${workflowId}-hook`, parameters }, name);
	}

	/** Completes a call of the assistant in the simulator; returns where the post-call webhook went and its status. */
	async function completeCall(assistantId: number) {
		const completed = (await endCall(sim, {
			assistant_id: assistantId,
			customer_phone: '+4915112345678',
			status: 'completed',
			type: 'outbound',
		})) as { deliveries: Array<{ kind: string; url: string; status: number }> };
		return completed.deliveries.filter((d) => d.kind === 'post_call');
	}

	/** Activation and removal finish in the background: wait until the service has had no request for 1.5 s. */
	async function settled() {
		let last = -1;
		let since = Date.now();
		await waitFor('the service to be quiet', () => {
			if (sim.log.length !== last) {
				last = sim.log.length;
				since = Date.now();
			}
			return Date.now() - since > 1500;
		});
	}

	// 2.x activates and removes in the background: wait for n8n to finish, then for the service to be quiet
	const activate = async (id: string) => {
		await rest.activate(id);
		await home.publicationsDone(id);
		await settled();
	};
	const deactivate = async (id: string) => {
		await rest.deactivate(id);
		await home.publicationsDone(id);
		await settled();
	};

	async function expectExecution(workflowId: string, before: number) {
		await waitFor(`an execution of ${workflowId}`, () => executions(workflowId) > before);
		expect(executions(workflowId)).toBe(before + 1);
	}

	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome());
		crm = await startReceiver();
		for (const id of [101, 102, 103, 104, 105]) addAssistant(id);
		await home.importWorkflows([
			trigger('ownTwoA000000001', 101),
			trigger('ownTwoB000000001', 101),
			trigger('ownForeign000001', 102),
			trigger('ownFail000000001', 103, { existingWebhook: 'fail' }),
			trigger('ownTest000000001', 104),
			trigger('ownChainA0000001', 105),
			trigger('ownChainB0000001', 105),
		]);
		server = await home.start();
		rest = await home.rest(server);
	});

	afterAll(async () => {
		await server?.stop();
		await sim?.close();
		await crm?.close();
		await home?.cleanup();
	});

	it('two workflows on one assistant: deactivating the one that does not hold the URL leaves the holder receiving, also after a restart', async () => {
		await activate('ownTwoA000000001');
		await waitFor('A at the assistant', () =>
			String(assistant(101).webhook_url).includes(webhookOf('ownTwoA000000001')),
		);
		await activate('ownTwoB000000001');
		await waitFor('B at the assistant', () =>
			String(assistant(101).webhook_url).includes(webhookOf('ownTwoB000000001')),
		);
		expect(assistant(101).webhook_url).toContain(webhookOf('ownTwoB000000001'));

		await deactivate('ownTwoA000000001');
		expect(assistant(101)).toMatchObject({ is_webhook_active: true });
		expect(assistant(101).webhook_url).toContain(webhookOf('ownTwoB000000001'));
		const before = executions('ownTwoB000000001');
		const deliveries = await completeCall(101);
		expect(deliveries).toEqual([expect.objectContaining({ status: 200 })]);
		await expectExecution('ownTwoB000000001', before);

		// a restart: the holder finds its URL at the service and registers nothing again
		const held = assistant(101).webhook_url;
		const port = Number(new URL(server.baseUrl).port);
		await server.stop();
		server = await home.start({ port });
		rest = await home.rest(server);
		await waitFor('the restarted server to serve the holder', async () => {
			const res = await fetch(held, {
				method: 'POST',
				headers: { 'x-voice-chat-assistant-probe': '1' },
			});
			return res.status === 200;
		});
		expect(assistant(101).webhook_url).toBe(held);
		const afterRestart = executions('ownTwoB000000001');
		expect(await completeCall(101)).toEqual([expect.objectContaining({ status: 200 })]);
		await expectExecution('ownTwoB000000001', afterRestart);
		expect(executions('ownTwoA000000001')).toBe(0);
	});

	it('a foreign URL is given back with its settings; "Fail Activation" fails naming the host', async () => {
		Object.assign(assistant(102), {
			is_webhook_active: true,
			webhook_url: crm.url,
			send_webhook_only_on_completed: false,
			include_recording_in_webhook: false,
		});
		await activate('ownForeign000001');
		expect(assistant(102)).toMatchObject({
			is_webhook_active: true,
			send_webhook_only_on_completed: true,
			include_recording_in_webhook: true,
		});
		expect(assistant(102).webhook_url).toContain(webhookOf('ownForeign000001'));
		await deactivate('ownForeign000001');
		expect(assistant(102)).toMatchObject({
			is_webhook_active: true,
			webhook_url: crm.url,
			send_webhook_only_on_completed: false,
			include_recording_in_webhook: false,
		});
		const got = crm.received.length;
		expect(await completeCall(102)).toEqual([
			expect.objectContaining({ url: crm.url, status: 200 }),
		]);
		expect(crm.received.length).toBe(got + 1);

		Object.assign(assistant(103), { is_webhook_active: true, webhook_url: crm.url });
		const host = new URL(crm.url).host;
		// 1.x refuses the activation request; 2.x activates in the background and keeps the activation error
		let message = '';
		try {
			await rest.activate('ownFail000000001');
		} catch (error) {
			message = (error as Error).message;
		}
		await home.publicationsDone('ownFail000000001');
		await settled();
		if (!message) {
			const status = await waitFor('the publication to finish', async () => {
				const s = await rest.get('/workflows/ownFail000000001/publication-status');
				return s.status !== 'in_progress' && s;
			});
			message = JSON.stringify(status);
		}
		expect(message).toContain(`Assistant 103 already sends its calls to ${host}`);
		expect(message).not.toContain('crm-token');
		expect(assistant(103)).toMatchObject({ is_webhook_active: true, webhook_url: crm.url });
	});

	it('listening for a test event, then stopping: the production URL is back and calls reach the published workflow', async () => {
		await activate('ownTest000000001');
		const production = assistant(104).webhook_url;
		expect(production).toContain(webhookOf('ownTest000000001'));

		const run = await rest.listenForTestEvent('ownTest000000001', 'Call Ended');
		expect(run).toMatchObject({ waitingForWebhook: true });
		await waitFor('the test URL at the assistant', () =>
			String(assistant(104).webhook_url).includes('/webhook-test/'),
		);

		await rest.stopListening('ownTest000000001');
		await waitFor('the production URL back', () => assistant(104).webhook_url === production);
		expect(assistant(104).is_webhook_active).toBe(true);
		const before = executions('ownTest000000001');
		expect(await completeCall(104)).toEqual([
			expect.objectContaining({ url: production, status: 200 }),
		]);
		await expectExecution('ownTest000000001', before);
	});

	it('the chain F → A → B: B receives while active; after A, then B, is deactivated, F has its calls again', async () => {
		Object.assign(assistant(105), {
			is_webhook_active: true,
			webhook_url: crm.url,
			send_webhook_only_on_completed: false,
		});
		await activate('ownChainA0000001');
		await activate('ownChainB0000001');
		await deactivate('ownChainA0000001');
		expect(assistant(105).webhook_url).toContain(webhookOf('ownChainB0000001'));
		const before = executions('ownChainB0000001');
		expect(await completeCall(105)).toEqual([expect.objectContaining({ status: 200 })]);
		await expectExecution('ownChainB0000001', before);

		await deactivate('ownChainB0000001');
		expect(assistant(105)).toMatchObject({
			is_webhook_active: true,
			webhook_url: crm.url,
			send_webhook_only_on_completed: false,
		});
		const got = crm.received.length;
		expect(await completeCall(105)).toEqual([
			expect.objectContaining({ url: crm.url, status: 200 }),
		]);
		expect(crm.received.length).toBe(got + 1);
		expect(executions('ownChainA0000001')).toBe(0);
	});
});

export {};
