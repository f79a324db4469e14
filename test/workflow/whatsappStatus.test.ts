/**
 * The WhatsApp Message Status event in a workflow (n8n-core): activation and
 * deactivation ask the service for nothing, the simulator posts signed read
 * receipts to the URL n8n gave the node, the node verifies them in n8n-core's
 * WebhookContext over the raw body and the workflow runs from its item; the
 * dashboard's test events pass only at the test URL.
 */
import type { INodeParameters } from 'n8n-workflow';

import { TestWorkflow, TYPES } from './helpers/runWorkflow';
import type { WorkflowJson } from './helpers/runWorkflow';
import { control, simCredentials, simulatorForTests } from './helpers/workflows';

const TRIGGER = 'Message Status';
const SIGNING = 'whsec_workflow_layer_0123';

function statusWorkflow(parameters: INodeParameters = {}): WorkflowJson {
	return {
		nodes: [
			{
				name: TRIGGER,
				type: TYPES.trigger,
				webhookId: '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182',
				parameters: { event: 'whatsappMessageStatus', signingSecret: SIGNING, ...parameters },
				credentials: { voiceChatAssistantApi: { id: 'credential-1', name: 'Simulator account' } },
			},
		],
		connections: {},
	};
}

describe('WhatsApp Message Status in a workflow against the simulator', () => {
	const sim = simulatorForTests({ redeliveryDelaysMs: [] });
	let test: TestWorkflow | undefined;
	afterEach(async () => {
		await test?.close();
		test = undefined;
	});

	it('verifies the signed posts over the raw body, refuses the unsigned one, starts a redelivery once, and asks the service for nothing', async () => {
		test = new TestWorkflow(statusWorkflow({ messageStatuses: ['delivered', 'read'] }), {
			credentials: simCredentials(sim),
		});
		await test.listen();
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
	});

	it('lets a dashboard test event through at the test URL, and not at the production URL', async () => {
		test = new TestWorkflow(statusWorkflow(), { credentials: simCredentials(sim) });
		await test.listen();
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
});
