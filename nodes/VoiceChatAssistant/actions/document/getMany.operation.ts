import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { knowledgebaseLocator, returnAllOrLimit } from '../../descriptions';
import { applyLimit, readLimit } from '../limit';
import { documentPath } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['getMany'] } },
	[knowledgebaseLocator, ...returnAllOrLimit] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const list = asList(
		await apiRequest.call(this, 'GET', documentPath(this, itemIndex, false), { itemIndex }),
	);
	return applyLimit(list, readLimit(this, itemIndex));
}
