import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { knowledgebaseLocator } from '../../descriptions';
import { knowledgebaseId } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['knowledgebase'], operation: ['get'] } },
	[knowledgebaseLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = knowledgebaseId(this, itemIndex);
	return unwrap(
		await apiRequest.call(this, 'GET', `/api/user/knowledgebases/${id}`, { itemIndex }),
	);
}
