import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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
