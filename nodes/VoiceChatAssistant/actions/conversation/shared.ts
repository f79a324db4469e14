import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { checkUuid } from '../validation';

export const conversationIdField: INodeProperties = {
	displayName: 'Conversation ID',
	name: 'conversationId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c',
	description: 'UUID of the conversation, as returned by Conversation → Create (conversation_ID)',
};

/** The message of Send Message and Generate AI Reply, with the operation's description. */
export function messageField(description: string): INodeProperties {
	return {
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		description,
	};
}

export function conversationId(ctx: IExecuteFunctions, itemIndex: number): string {
	const id = String(ctx.getNodeParameter('conversationId', itemIndex, '')).trim();
	checkUuid(ctx, itemIndex, 'Conversation ID', id);
	return id;
}

/** The answer without the `status: true` flag (failures never get here: the transport raises them). */
export function withoutStatus(answer: unknown): IDataObject {
	const rest = { ...((answer ?? {}) as IDataObject) };
	delete rest.status;
	return rest;
}

/** Disables or enables the AI answers of a conversation (human takeover and hand-back). */
export async function switchAi(
	ctx: IExecuteFunctions,
	itemIndex: number,
	enable: boolean,
): Promise<IDataObject> {
	const id = conversationId(ctx, itemIndex);
	const answer = await apiRequest.call(
		ctx,
		'POST',
		`/api/automate/conversations/${id}/${enable ? 'enable-ai' : 'disable-ai'}`,
		// switching twice leaves the same state: safe to send again after an uncertain failure
		{ itemIndex, retry: 'safe' },
	);
	const rest = withoutStatus(answer);
	return {
		id,
		...rest,
		ai_enabled: typeof rest.ai_enabled === 'boolean' ? rest.ai_enabled : enable,
	};
}
