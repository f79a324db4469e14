/**
 * The trigger guide's field tables (docs/triggers/*.md, "## Fields") against
 * what the triggers really emit in a workflow against the simulator: the
 * webhook events through real deliveries of the simulator, the polling events
 * through the editor's "Fetch Test Event" (the same records a poll emits). A
 * field added to or dropped from an item, or a table row for a field no item
 * has (and not marked "absent"), fails here.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldDifferences } from '../helpers/docFields';
import { TestWorkflow, TYPES } from './helpers/runWorkflow';
import { listeningWorkflows, webhookTrigger } from './helpers/webhooks';
import {
	SIM_API_KEY,
	byId,
	control,
	serviceNode,
	simCredentials,
	simulatorForTests,
	standalone,
} from './helpers/workflows';

const NODE = 'Trigger';
const SIGNING = 'whsec_docs_fields_0123';
const WEBHOOK_ID = '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7';

describe('the trigger guide lists exactly the fields the triggers emit', () => {
	const sim = simulatorForTests({ redeliveryDelaysMs: [] });
	const listeningWorkflow = listeningWorkflows(sim);

	/**
	 * The webhook trigger activated with `parameters` (`signed`: with a WhatsApp signing
	 * credential); `deliver` makes the simulator post; the first item.
	 */
	async function delivered(
		parameters: IDataObject,
		deliver: (url: string) => Promise<unknown>,
		signed = false,
	): Promise<IDataObject> {
		const test = await listeningWorkflow(
			standalone(webhookTrigger(NODE, parameters, { webhookId: WEBHOOK_ID, signed })),
			signed ? { signingSecret: SIGNING } : {},
		);
		expect(await test.hook(NODE, 'create')).toBe(true);
		await deliver(test.webhookUrl(NODE));
		const [delivery] = await test.waitForDeliveries(1);
		expect(delivery.result?.error).toBeUndefined();
		const items = delivery.result!.outputOf(NODE);
		expect(items.length).toBeGreaterThan(0);
		await test.hook(NODE, 'delete');
		return items[0].json;
	}

	/** The polling trigger's "Fetch Test Event" with `parameters`: its first item. */
	async function fetched(parameters: IDataObject): Promise<IDataObject> {
		const test = new TestWorkflow(
			standalone(serviceNode(NODE, TYPES.pollingTrigger, parameters, { webhookId: WEBHOOK_ID })),
			{ credentials: simCredentials(sim) },
		);
		const output = await test.poll(NODE, true);
		expect(output?.[0]?.length).toBeGreaterThan(0);
		return output![0][0].json;
	}

	it('Call Completed (Post-Call Webhook): docs/triggers/call-ended-webhook.md', async () => {
		const item = await delivered({ event: 'callCompleted', assistantId: byId(1) }, () =>
			control(sim, 'calls/complete', { assistant_id: 1, customer_phone: '+4915199990000' }),
		);
		expect(fieldDifferences('docs/triggers/call-ended-webhook.md', item)).toEqual([]);
	});

	it('Conversation Ended (Chat): docs/triggers/conversation-ended-webhook.md', async () => {
		const item = await delivered({ event: 'conversationEnded', assistantId: byId(1) }, () =>
			control(sim, 'conversations/end', { assistant_id: 1, customer_phone: '+4915199990001' }),
		);
		expect(fieldDifferences('docs/triggers/conversation-ended-webhook.md', item)).toEqual([]);
	});

	it('WhatsApp Message Status: docs/triggers/whatsapp-message-status.md', async () => {
		const item = await delivered(
			{ event: 'whatsappMessageStatus' },
			(url) => control(sim, 'whatsapp/status', { url, status: 'failed', secret: SIGNING }),
			true,
		);
		expect(fieldDifferences('docs/triggers/whatsapp-message-status.md', item)).toEqual([]);
	});

	it('Mid-Call Tool Request: docs/triggers/mid-call-tool.md', async () => {
		const item = await delivered(
			{
				event: 'midCallTool',
				assistantId: byId(1),
				toolName: 'check_free_slot',
				toolDescription: 'Checks whether an appointment slot is free.',
				toolParameters: {
					parameter: [{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' }],
				},
				toolTimeout: 5,
			},
			() =>
				control(sim, 'calls/use-tool', {
					assistant_id: 1,
					tool: 'check_free_slot',
					arguments: { date: '2026-12-01' },
				}),
		);
		expect(fieldDifferences('docs/triggers/mid-call-tool.md', item)).toEqual([]);
	});

	it('Call Ended (polling): docs/triggers/polling-call-ended.md', async () => {
		const item = await fetched({ event: 'callEnded', assistantId: byId(1) });
		expect(fieldDifferences('docs/triggers/polling-call-ended.md', item)).toEqual([]);
	});

	it('New Conversation and Conversation Ended (polling)', async () => {
		const started = await fetched({ event: 'newConversation', assistantId: byId(1) });
		expect(fieldDifferences('docs/triggers/polling-new-conversation.md', started)).toEqual([]);
		const ended = await fetched({ event: 'conversationEnded', assistantId: byId(1) });
		expect(ended.history).toBeDefined();
		expect(fieldDifferences('docs/triggers/polling-conversation-ended.md', ended)).toEqual([]);
	});

	it('Document Processed (polling): docs/triggers/polling-document-processed.md', async () => {
		const item = await fetched({ event: 'documentProcessed', knowledgebaseId: byId(1) });
		expect(fieldDifferences('docs/triggers/polling-document-processed.md', item)).toEqual([]);
	});

	it('Lead Status Changed and Campaign Status Changed (polling)', async () => {
		const lead = await fetched({
			event: 'leadStatusChanged',
			campaignId: '',
			leadStatuses: ['created', 'completed'],
		});
		expect(lead).toHaveProperty('previous_status', null);
		expect(fieldDifferences('docs/triggers/polling-lead-status-changed.md', lead)).toEqual([]);
		const campaign = await fetched({ event: 'campaignStatusChanged', campaignId: '' });
		expect(campaign).toHaveProperty('change');
		expect(fieldDifferences('docs/triggers/polling-campaign-status-changed.md', campaign)).toEqual(
			[],
		);
	});

	it('Balance Below (polling): docs/triggers/polling-balance-below.md', async () => {
		const item = await fetched({ event: 'balanceBelow', balanceThreshold: 10 });
		expect(item).toHaveProperty('currency', 'USD');
		expect(fieldDifferences('docs/triggers/polling-balance-below.md', item)).toEqual([]);
	});

	it('reads the tables: a field the item lacks, and one the table lacks, are named', () => {
		expect(
			fieldDifferences('docs/triggers/polling-document-processed.md', {
				id: 1,
				name: 'FAQ',
				description: '',
				type: 'website',
				type_label: 'Website',
				status: 'active',
				created_at: '',
				updated_at: '',
				url: 'https://www.example.com/faq',
			}),
		).toEqual([
			'docs/triggers/polling-document-processed.md: the item has "url", the table does not',
			'docs/triggers/polling-document-processed.md: the table lists "status_label", the item has none (and it is not marked absent)',
		]);
		expect(SIM_API_KEY).toBeTruthy();
	});
});
