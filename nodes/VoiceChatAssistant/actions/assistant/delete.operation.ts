import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { assistantLocator } from '../../descriptions';
import { assistantId } from './webhooks';

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['delete'] } },
	[assistantLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = assistantId(this, itemIndex);
	const answer = (await apiRequest.call(this, 'DELETE', `/api/user/assistant/${id}`, {
		itemIndex,
	})) as IDataObject;
	return { deleted: true, id, ...messageOf(answer) };
}
