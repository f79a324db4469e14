import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { createOnce } from '../../transport/createOnce';
import { checkRequired } from '../validation';
import { toolBody, toolFields } from './shared';

const properties: INodeProperties[] = [
	{ ...toolFields.name, required: true },
	{ ...toolFields.description, required: true },
	{ ...toolFields.endpoint, required: true },
	toolFields.method,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [toolFields.headers, toolFields.schema, toolFields.timeout],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tool'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const fields: IDataObject = {
		name: this.getNodeParameter('name', itemIndex, ''),
		description: this.getNodeParameter('description', itemIndex, ''),
		endpoint: this.getNodeParameter('endpoint', itemIndex, ''),
		method: this.getNodeParameter('method', itemIndex, 'POST'),
		...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
	};
	checkRequired(this, itemIndex, 'Description', fields.description);
	const body = toolBody(this, itemIndex, fields);
	return await createOnce(this, itemIndex, {
		path: '/api/user/tools',
		body,
		noun: 'mid call tool',
		policy: {
			kind: 'findCreated',
			candidates: async () => asList(await apiRequest.call(this, 'GET', '/api/user/tools')),
			matches: (candidate) => candidate.name === body.name,
		},
	});
}
