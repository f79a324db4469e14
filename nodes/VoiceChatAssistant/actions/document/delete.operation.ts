import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { documentLocator, knowledgebaseLocator } from '../../descriptions';
import { documentPath } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['delete'] } },
	[knowledgebaseLocator, documentLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const path = documentPath(this, itemIndex);
	const answer = (await apiRequest.call(this, 'DELETE', path, { itemIndex })) as IDataObject;
	return {
		deleted: true,
		id: Number(path.split('/').pop()),
		...messageOf(answer),
	};
}
