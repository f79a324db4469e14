import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { knowledgebaseLocator } from '../../descriptions';
import { knowledgebaseId } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['knowledgebase'], operation: ['delete'] } },
	[knowledgebaseLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = knowledgebaseId(this, itemIndex);
	const answer = (await apiRequest.call(this, 'DELETE', `/api/user/knowledgebases/${id}`, {
		itemIndex,
	})) as IDataObject;
	return { deleted: true, id, ...messageOf(answer) };
}
