import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { conversationIdField, switchAi } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['disableAi'] } },
	[
		{
			...conversationIdField,
			description:
				'UUID of the conversation whose AI answers stop (a human takes over; new customer messages are stored but not answered)',
		},
	] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await switchAi(this, itemIndex, false);
}
