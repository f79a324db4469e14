import type { INodeProperties } from 'n8n-workflow';

import { assistantLocator } from '../VoiceChatAssistant/descriptions';
import { callDeliveryFields, callFields, callNotices, callOptions } from './calls/fields';
import { midCallToolProperties } from './midCallTool/midCallTool';
import { CALL_AND_CHAT_EVENTS, CALL_EVENTS, INBOUND, MID_CALL_TOOL } from './core/events';
import { whatsappStatusOptions, whatsappStatusProperties } from './whatsapp/fields';
import { WHATSAPP_STATUS } from './whatsapp/whatsappStatus';

/**
 * The webhook trigger's form: the Event picker (the call family's events from its table), the
 * assistant pickers the families share, and each family's fields (calls/fields.ts,
 * midCallTool/midCallTool.ts, whatsapp/fields.ts), each shown for its own events.
 */
export const triggerProperties: INodeProperties[] = [
	...callNotices,
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: [
			...CALL_AND_CHAT_EVENTS.map((value) => ({ ...CALL_EVENTS[value].option, value })),
			{
				name: 'Mid-Call Tool Request',
				value: MID_CALL_TOOL,
				action: 'On mid-call tool request',
				description:
					'During a call the assistant asks this workflow (a mid-call tool the node registers) and speaks its answer',
			},
			{
				name: 'WhatsApp Message Status',
				value: WHATSAPP_STATUS,
				action: 'On WhatsApp message status',
				description:
					"A sent WhatsApp message was sent, delivered, read, failed or undelivered (the sender's read-receipts webhook, set up in the dashboard)",
			},
		],
		default: INBOUND,
	},
	{
		...assistantLocator,
		description:
			'The assistant whose calls start this workflow. Pick it from the list or give its numeric ID.',
		displayOptions: { show: { event: [...CALL_AND_CHAT_EVENTS, MID_CALL_TOOL] } },
	},
	{
		displayName: 'Additional Assistants',
		name: 'additionalAssistants',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Assistant',
		default: {},
		description:
			'More assistants whose calls start this workflow; the item says which one in "assistant_id"',
		displayOptions: { show: { event: [...CALL_AND_CHAT_EVENTS, MID_CALL_TOOL] } },
		options: [
			{
				displayName: 'Assistant',
				name: 'assistant',
				values: [
					{
						...assistantLocator,
						description: 'Pick the assistant from the list or give its numeric ID',
					},
				],
			},
		],
	},
	...callFields,
	...midCallToolProperties,
	...whatsappStatusProperties,
	...callDeliveryFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { event: [...CALL_AND_CHAT_EVENTS, WHATSAPP_STATUS] } },
		options: [...callOptions, ...whatsappStatusOptions],
	},
];
