import type { INodeProperties } from 'n8n-workflow';

export const webhook: INodeProperties[] = [
	{
		displayName: 'Post-Call Webhook Active',
		name: 'is_webhook_active',
		type: 'boolean',
		default: false,
		description:
			'Whether the post-call webhook is sent (to the Webhook URL the assistant has or gets)',
	},
	{
		displayName: 'Webhook URL',
		name: 'webhook_url',
		type: 'string',
		default: '',
		description: 'Target of post-call notifications; required when Post-Call Webhook Active is on',
	},
	{
		displayName: 'Webhook Only on Completed Calls',
		name: 'send_webhook_only_on_completed',
		type: 'boolean',
		default: true,
		description: 'Whether failed and no-answer calls send no webhook',
	},
	{
		displayName: 'Include Recording',
		name: 'include_recording_in_webhook',
		type: 'boolean',
		default: true,
		description: 'Whether the recording URL is part of the webhook',
	},
];
