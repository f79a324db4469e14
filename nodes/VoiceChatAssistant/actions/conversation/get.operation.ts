import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { conversationId, conversationIdField, withoutStatus } from './shared';
import { simplifyConversation } from '../simplify';
import type { Simplify } from '../types';

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['get'] } },
	[conversationIdField] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = conversationId(this, itemIndex);
	return {
		conversation_id: id,
		...withoutStatus(await apiRequest.call(this, 'GET', `/api/conversations/${id}`, { itemIndex })),
	};
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyConversation,
	fields: 'conversation id, message count, the messages as one transcript, the last message',
};
