/**
 * The WhatsApp Message Status event in a workflow (n8n-core): activation and
 * deactivation ask the service for nothing, the simulator posts signed read
 * receipts to the URL n8n gave the node, the node verifies them in n8n-core's
 * WebhookContext over the raw body with the secret of its signing credential
 * (n8n-core's getCredentials) and the workflow runs from its item; the secret
 * is in neither the workflow nor its runs nor n8n's log; a receipt signed an
 * hour ago is refused; the dashboard's test events pass only at the test URL;
 * a workflow that still has the old node field keeps receiving.
 */
import type { IDataObject } from 'n8n-workflow';

import { setupN8nCore } from './helpers/n8nCore';
import { listeningWorkflows, webhookTrigger } from './helpers/webhooks';
import { control, simulatorForTests, standalone } from './helpers/workflows';

const TRIGGER = 'Message Status';
const SIGNING = 'whsec_workflow_layer_0123';

const statusWorkflow = (parameters: IDataObject = {}, signed = true) =>
	standalone(
		webhookTrigger(
			TRIGGER,
			{ event: 'whatsappMessageStatus', ...parameters },
			{ webhookId: '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182', signed },
		),
	);

describe('WhatsApp Message Status in a workflow against the simulator', () => {
	const sim = simulatorForTests({ redeliveryDelaysMs: [] });
	const listeningWorkflow = listeningWorkflows(sim);

	it('verifies the signed posts over the raw body, refuses the unsigned one, starts a redelivery once, and asks the service for nothing', async () => {
		const test = await listeningWorkflow(
			statusWorkflow({ messageStatuses: ['delivered', 'read'] }),
			{
				signingSecret: SIGNING,
			},
		);
		const requests = sim.log.length;
		expect(await test.hook(TRIGGER, 'checkExists')).toBe(false);
		expect(await test.hook(TRIGGER, 'create')).toBe(true);
		const url = test.webhookUrl(TRIGGER);

		const escaped = await control<any>(sim, 'whatsapp/status', {
			url,
			status: 'read',
			secret: SIGNING,
			format: 'escaped',
			display_name: 'Müller / Support',
		});
		expect(escaped.body).toContain('M\\u00fcller \\/ Support');
		const pretty = await control<any>(sim, 'whatsapp/status', {
			url,
			status: 'delivered',
			secret: SIGNING,
			format: 'pretty',
			redeliver: true,
		});
		const filtered = await control<any>(sim, 'whatsapp/status', {
			url,
			status: 'sent',
			secret: SIGNING,
		});
		const unsigned = await control<any>(sim, 'whatsapp/status', {
			url,
			status: 'read',
			unsigned: true,
		});
		expect([escaped, pretty, filtered, unsigned].map((p) => p.delivery.status)).toEqual([
			200, 200, 200, 401,
		]);
		expect(pretty.redelivery).toMatchObject({
			status: 200,
			response: { received: true, duplicate: true },
		});

		const deliveries = await test.waitForDeliveries(5);
		const started = deliveries.filter((d) => d.result !== undefined);
		expect(started).toHaveLength(2);
		for (const d of started) expect(d.result!.error).toBeUndefined();
		const items = started.map((d) => d.result!.outputOf(TRIGGER)[0].json);
		expect(items[0]).toEqual({ ...escaped.payload, test: false });
		expect((items[0].sender as any).display_name).toBe('Müller / Support');
		expect(items[1]).toEqual({ ...pretty.payload, test: false });

		expect(await test.hook(TRIGGER, 'delete')).toBe(true);
		expect(sim.log.slice(requests)).toEqual([]);
		// the secret is nowhere n8n keeps the workflow or its runs, nor in its log
		const { logs } = await setupN8nCore();
		expect(JSON.stringify(test.workflow.nodes)).not.toContain(SIGNING);
		for (const d of started) expect(JSON.stringify(d.result!.run)).not.toContain(SIGNING);
		expect(JSON.stringify(deliveries.map((d) => d.response))).not.toContain(SIGNING);
		expect(JSON.stringify(logs)).not.toContain(SIGNING);
	});

	it('refuses a correctly signed receipt written an hour ago (a captured post played back), and one from the future', async () => {
		const test = await listeningWorkflow(statusWorkflow(), { signingSecret: SIGNING });
		expect(await test.hook(TRIGGER, 'create')).toBe(true);
		const url = test.webhookUrl(TRIGGER);
		const old = await control<any>(sim, 'whatsapp/status', {
			url,
			status: 'read',
			secret: SIGNING,
			age_seconds: 3600,
		});
		const ahead = await control<any>(sim, 'whatsapp/status', {
			url,
			status: 'read',
			secret: SIGNING,
			age_seconds: -3600,
		});
		const fresh = await control<any>(sim, 'whatsapp/status', {
			url,
			status: 'read',
			secret: SIGNING,
			age_seconds: 200,
		});
		expect([old, ahead, fresh].map((p) => [p.delivery.status, p.delivery.response])).toEqual([
			[401, { message: 'Unauthorized: "timestamp" is too old' }],
			[401, { message: 'Unauthorized: "timestamp" is in the future' }],
			[200, { received: true }],
		]);
		const deliveries = await test.waitForDeliveries(3);
		expect(deliveries.map((d) => d.result !== undefined)).toEqual([false, false, true]);
	});

	it('lets a dashboard test event through at the test URL, and not at the production URL', async () => {
		const test = await listeningWorkflow(statusWorkflow(), { signingSecret: SIGNING });
		expect(await test.hook(TRIGGER, 'create', { test: true })).toBe(true);
		const atTestUrl = await control<any>(sim, 'whatsapp/status', {
			url: test.webhookUrl(TRIGGER, true),
			status: 'sent',
			secret: SIGNING,
			test: true,
		});
		const atProduction = await control<any>(sim, 'whatsapp/status', {
			url: test.webhookUrl(TRIGGER),
			status: 'sent',
			secret: SIGNING,
			test: true,
		});
		expect(atProduction.delivery.response).toMatchObject({ received: true, ignored: true });
		const [listening, production] = await test.waitForDeliveries(2);
		expect(listening.result!.outputOf(TRIGGER)[0].json).toEqual({
			...atTestUrl.payload,
			test: true,
		});
		expect(production.result).toBeUndefined();
	});

	it('keeps receiving in a workflow that still has the old "Signing Secret" field and no credential, with a warning', async () => {
		const { logs } = await setupN8nCore();
		const before = logs.length;
		const test = await listeningWorkflow(statusWorkflow({ signingSecret: SIGNING }, false));
		// n8n-core keeps the field (shown while it holds a value), so the node still finds it
		expect(test.node(TRIGGER).parameters.signingSecret).toBe(SIGNING);
		expect(await test.hook(TRIGGER, 'create')).toBe(true);
		const warnings = logs.slice(before).filter((l) => l.level === 'warn');
		expect(warnings.map((l) => l.message)).toEqual([
			expect.stringContaining("still read from the node's Signing Secret (Old Field)"),
		]);
		expect(JSON.stringify(warnings)).not.toContain(SIGNING);
		const posted = await control<any>(sim, 'whatsapp/status', {
			url: test.webhookUrl(TRIGGER),
			status: 'delivered',
			secret: SIGNING,
		});
		expect(posted.delivery.status).toBe(200);
		const [delivery] = await test.waitForDeliveries(1);
		expect(delivery.result!.outputOf(TRIGGER)[0].json).toEqual({ ...posted.payload, test: false });
	});
});
