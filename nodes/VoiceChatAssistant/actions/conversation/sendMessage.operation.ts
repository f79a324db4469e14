import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { checkRequired } from '../validation';
import { conversationId, conversationIdField, messageField, withoutStatus } from './shared';
import { costNotice } from '../../descriptions';

const properties: INodeProperties[] = [
	costNotice('sendMessage', 'sendMessageNotice'),
	conversationIdField,
	messageField('The user message. In widget conversations each user message costs 0.01 USD.'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['sendMessage'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = conversationId(this, itemIndex);
	const message = this.getNodeParameter('message', itemIndex, '') as string;
	checkRequired(this, itemIndex, 'Message', message);
	const answer = await apiRequest.call(this, 'POST', `/api/conversations/${id}/messages`, {
		body: { message },
		itemIndex,
		// a widget conversation is charged per message: never sent twice
		retry: 'sendOnce',
		checkBeforeRetry: 'check the history with Conversation → Get',
	});
	return { conversation_id: id, ...withoutStatus(answer) };
}
