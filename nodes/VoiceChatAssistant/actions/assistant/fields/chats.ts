import type { INodeProperties } from 'n8n-workflow';

export const chats: INodeProperties[] = [
	{
		displayName: 'Conversation Inactivity Timeout',
		name: 'conversation_inactivity_timeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440 },
		default: 30,
		description:
			'1-1440 minutes, default 30: a widget or WhatsApp chat ends after this much silence',
	},
	{
		displayName: 'Conversation-Ended Webhook URL',
		name: 'conversation_ended_webhook_url',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/hooks/chat-ended',
		description:
			'Address that receives the transcript when a chat ends (same setting as Enable Conversation-Ended Webhook)',
	},
	{
		displayName: 'Re-Trigger Conversation-Ended Webhook',
		name: 'conversation_ended_retrigger',
		type: 'boolean',
		default: false,
		description:
			'Whether a chat that goes on after it ended sends the conversation-ended webhook again when it ends again',
	},
];
