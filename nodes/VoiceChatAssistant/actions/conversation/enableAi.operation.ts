import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { conversationIdField, switchAi } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['enableAi'] } },
	[
		{
			...conversationIdField,
			description:
				'UUID of the conversation whose AI answers resume (hand-back after a human takeover)',
		},
	] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await switchAi(this, itemIndex, true);
}
