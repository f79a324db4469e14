import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { documentLocator, knowledgebaseLocator } from '../../descriptions';
import { updateFieldsCollection } from '../commonFields';
import { nameAndDescription } from '../knowledgebase/shared';
import { putUpdateFields } from '../update';
import { documentPath } from './shared';

const properties: INodeProperties[] = [
	knowledgebaseLocator,
	documentLocator,
	updateFieldsCollection(
		[
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
		'Only the name and description of a document can change; to change its content, delete it and create a new one',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await putUpdateFields(
		this,
		itemIndex,
		documentPath(this, itemIndex),
		(fields) => nameAndDescription(this, itemIndex, fields),
		'Update Fields is empty: add Name or Description to change',
	);
}
