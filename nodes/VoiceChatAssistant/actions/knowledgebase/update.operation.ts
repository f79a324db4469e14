import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { knowledgebaseLocator } from '../../descriptions';
import { refuse } from '../validation';
import { descriptionField, knowledgebaseId, nameAndDescription, nameField } from './shared';

const properties: INodeProperties[] = [
	knowledgebaseLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [descriptionField, nameField],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['knowledgebase'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = knowledgebaseId(this, itemIndex);
	const body = nameAndDescription(
		this,
		itemIndex,
		this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	if (!Object.keys(body).length)
		refuse(this, itemIndex, 'Update Fields is empty: add Name or Description to change');
	return unwrap(
		await apiRequest.call(this, 'PUT', `/api/user/knowledgebases/${id}`, { body, itemIndex }),
	);
}
