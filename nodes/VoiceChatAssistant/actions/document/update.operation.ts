import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { documentLocator, knowledgebaseLocator } from '../../descriptions';
import { nameAndDescription } from '../knowledgebase/shared';
import { refuse } from '../validation';
import { documentPath } from './shared';

const properties: INodeProperties[] = [
	knowledgebaseLocator,
	documentLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Only the name and description of a document can change; to change its content, delete it and create a new one',
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				description: 'At most 255 characters',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'At most 255 characters',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const path = documentPath(this, itemIndex);
	const body = nameAndDescription(
		this,
		itemIndex,
		this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	if (!Object.keys(body).length)
		refuse(this, itemIndex, 'Update Fields is empty: add Name or Description to change');
	const answer = (await apiRequest.call(this, 'PUT', path, { body, itemIndex })) as IDataObject;
	return unwrap(answer);
}
