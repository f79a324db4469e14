import type { INodeProperties } from 'n8n-workflow';

export const voicemail: INodeProperties[] = [
	{
		displayName: 'End Call on Voicemail',
		name: 'end_call_on_voicemail',
		type: 'boolean',
		default: true,
		description: 'Whether the call ends when a voicemail answers',
	},
	{
		displayName: 'Voicemail Message',
		name: 'voice_mail_message',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'Message left on a voicemail, at most 1000 characters',
	},
];
