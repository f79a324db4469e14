/**
 * The trigger in a real workflow (n8n-core): its webhook methods run in
 * n8n-core's HookContext against the simulator, the simulator delivers a
 * completed call to the webhook URL n8n gave the node, the node answers in
 * n8n-core's WebhookContext, and the workflow runs on from its item.
 */
import type { IDataObject } from 'n8n-workflow';

import { TYPES } from './helpers/runWorkflow';
import { listeningWorkflows, webhookTrigger } from './helpers/webhooks';
import { byId, control, serviceNode, simulatorForTests, triggerThen } from './helpers/workflows';

const TRIGGER = 'Call Ended';
const GET_CALL = 'Get Call';

const triggerWorkflow = (parameters: IDataObject) =>
	triggerThen(
		webhookTrigger(TRIGGER, parameters, { webhookId: '5c7d1e2f-0a9b-4c3d-8e7f-112233445566' }),
		serviceNode(GET_CALL, TYPES.action, {
			resource: 'call',
			operation: 'get',
			callId: '={{ $json.id }}',
		}),
	);

describe('Trigger in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const listeningWorkflow = listeningWorkflows(sim);

	it('Call Completed: activation registers the URL once, a completed call runs the workflow, deactivation removes it', async () => {
		const test = await listeningWorkflow(
			triggerWorkflow({ event: 'callCompleted', assistantId: byId(1) }),
		);
		const assistant = () => sim.state.assistants.find((a: any) => a.id === 1);
		const registrations = () =>
			sim.log.filter((e) => e.method === 'PUT' && e.path === '/api/user/assistant/1').length;
		const before = registrations();

		// activation, as n8n does it: checkExists, then create when it says no
		expect(await test.hook(TRIGGER, 'checkExists')).toBe(false);
		expect(await test.hook(TRIGGER, 'create')).toBe(true);
		const registered = new URL(assistant().webhook_url);
		expect(`${registered.origin}${registered.pathname}`).toBe(test.webhookUrl(TRIGGER));
		expect(registered.searchParams.get('assistant_id')).toBe('1');
		expect(registered.searchParams.get('secret')).toMatch(/^\w{32}$/);
		expect(assistant().is_webhook_active).toBeTruthy();
		// n8n restarts: the registration in static data matches, nothing is sent again
		expect(await test.hook(TRIGGER, 'checkExists')).toBe(true);
		expect(registrations()).toBe(before + 1);

		const completed = await control<any>(sim, 'calls/complete', {
			assistant_id: 1,
			customer_phone: '+4915199990000',
		});
		expect(completed.deliveries).toEqual([
			expect.objectContaining({ kind: 'post_call', status: 200, response: { received: true } }),
		]);
		const [delivery] = await test.waitForDeliveries(1);
		const result = delivery.result!;
		expect(result.error).toBeUndefined();
		expect(result.executionOrder).toEqual([TRIGGER, GET_CALL]);
		const [item] = result.outputOf(TRIGGER);
		expect(item.json).toMatchObject({
			event: 'callCompleted',
			assistant_id: 1,
			id: completed.call.id,
			customer_phone: '+4915199990000',
		});
		expect(typeof item.json.transcript_text).toBe('string');
		expect(result.outputOf(GET_CALL)).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({ id: completed.call.id }),
				pairedItem: { item: 0 },
			}),
		]);

		// a POST without the secret is refused and starts nothing
		const forged = await fetch(test.webhookUrl(TRIGGER), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ id: 1, status: 'completed' }),
		});
		expect(forged.status).toBe(401);
		const [, refused] = await test.waitForDeliveries(2);
		expect(refused.result).toBeUndefined();

		// deactivation removes the webhook; later calls are not delivered
		expect(await test.hook(TRIGGER, 'delete')).toBe(true);
		expect(assistant().is_webhook_active).toBeFalsy();
		expect(await test.hook(TRIGGER, 'checkExists')).toBe(false);
		const after = await control<any>(sim, 'calls/complete', { assistant_id: 1 });
		expect(after.deliveries).toEqual([]);
		expect(test.deliveries).toHaveLength(2);
	});

	it('Inbound Call Completed with the test URL: listening for a test event registers /webhook-test/, an inbound call runs the workflow', async () => {
		const test = await listeningWorkflow(
			triggerWorkflow({
				event: 'inboundCallCompleted',
				assistantId: byId(1),
				options: { callStatuses: ['completed'] },
			}),
		);
		expect(await test.hook(TRIGGER, 'create', { test: true })).toBe(true);
		const url = new URL(sim.state.assistants.find((a: any) => a.id === 1).inbound_webhook_url);
		expect(`${url.origin}${url.pathname}`).toBe(test.webhookUrl(TRIGGER, true));
		expect(url.pathname).toMatch(/^\/webhook-test\//);

		// a call with a status the workflow does not listen to is answered and starts nothing
		await control(sim, 'calls/complete', { assistant_id: 1, type: 'inbound', status: 'failed' });
		const completed = await control<any>(sim, 'calls/complete', {
			assistant_id: 1,
			type: 'inbound',
			status: 'completed',
		});
		const [ignored, delivery] = await test.waitForDeliveries(2);
		expect(ignored.statusCode).toBe(200);
		expect(ignored.response).toMatchObject({ received: true, ignored: true });
		expect(ignored.result).toBeUndefined();
		expect(delivery.result?.outputOf(TRIGGER)[0].json).toMatchObject({
			event: 'inboundCallCompleted',
			id: completed.call.id,
		});
		expect(delivery.result?.outputOf(GET_CALL)[0].json.id).toBe(completed.call.id);

		expect(await test.hook(TRIGGER, 'delete', { test: true })).toBe(true);
		expect(sim.state.assistants.find((a: any) => a.id === 1).inbound_webhook_url).toBeFalsy();
	});
});
