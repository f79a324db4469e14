import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { toolLocator } from '../../descriptions';
import { toolId } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['tool'], operation: ['get'] } },
	[toolLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return unwrap(
		await apiRequest.call(this, 'GET', `/api/user/tools/${toolId(this, itemIndex)}`, { itemIndex }),
	);
}
