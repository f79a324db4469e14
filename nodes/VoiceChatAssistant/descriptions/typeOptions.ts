import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The types of a call, as the editor lists them (the action's call filters, the polling trigger's). */
export const CALL_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Inbound', value: 'inbound' },
	{ name: 'Outbound', value: 'outbound' },
	{ name: 'Web', value: 'web' },
];

/** The values alone, for checks before sending. */
export const CALL_TYPES: string[] = CALL_TYPE_OPTIONS.map((option) => String(option.value));

/** The call filter by type (the action's Call → Get Many, the polling trigger's Call Ended). */
export const callTypeFilter: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	default: 'outbound',
	description: 'Only calls of this type',
	options: CALL_TYPE_OPTIONS,
};

/** The types of a conversation (chat), as the editor lists them. */
export const CONVERSATION_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'API', value: 'api' },
	{ name: 'Test', value: 'test' },
	{ name: 'WhatsApp', value: 'whatsapp' },
	{ name: 'Widget', value: 'widget' },
];

/** The values alone, for checks before sending. */
export const CONVERSATION_TYPES: string[] = CONVERSATION_TYPE_OPTIONS.map((option) =>
	String(option.value),
);
