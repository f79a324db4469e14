import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { toolLocator } from '../../descriptions';
import { toolId } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['tool'], operation: ['delete'] } },
	[toolLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = toolId(this, itemIndex);
	const answer = (await apiRequest.call(this, 'DELETE', `/api/user/tools/${id}`, {
		itemIndex,
	})) as IDataObject;
	return { deleted: true, id, ...messageOf(answer) };
}
