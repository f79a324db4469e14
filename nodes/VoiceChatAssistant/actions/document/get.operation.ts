import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { documentLocator, knowledgebaseLocator } from '../../descriptions';
import { documentPath } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['get'] } },
	[knowledgebaseLocator, documentLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return unwrap(await apiRequest.call(this, 'GET', documentPath(this, itemIndex), { itemIndex }));
}
