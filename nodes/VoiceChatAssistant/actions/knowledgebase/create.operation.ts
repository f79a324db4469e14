import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { createOnce } from '../../transport/createOnce';
import { checkRequired } from '../validation';
import { descriptionField, nameAndDescription, nameField } from './shared';

const properties: INodeProperties[] = [{ ...nameField, required: true }, descriptionField];

export const description = updateDisplayOptions(
	{ show: { resource: ['knowledgebase'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = this.getNodeParameter('name', itemIndex, '') as string;
	checkRequired(this, itemIndex, 'Name', name);
	const text = this.getNodeParameter('description', itemIndex, '') as string;
	const body = nameAndDescription(this, itemIndex, text ? { name, description: text } : { name });
	return await createOnce(this, itemIndex, {
		path: '/api/user/knowledgebases',
		body,
		noun: 'knowledgebase',
		policy: {
			kind: 'findCreated',
			candidates: async () =>
				asList(await apiRequest.call(this, 'GET', '/api/user/knowledgebases')),
			matches: (candidate) => candidate.name === name,
		},
	});
}
