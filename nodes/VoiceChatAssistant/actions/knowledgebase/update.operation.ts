import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { knowledgebaseLocator } from '../../descriptions';
import { updateFieldsCollection } from '../commonFields';
import { putUpdateFields } from '../update';
import { descriptionField, knowledgebaseId, nameAndDescription, nameField } from './shared';

const properties: INodeProperties[] = [
	knowledgebaseLocator,
	updateFieldsCollection([descriptionField, nameField]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['knowledgebase'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = knowledgebaseId(this, itemIndex);
	return await putUpdateFields(
		this,
		itemIndex,
		`/api/user/knowledgebases/${id}`,
		(fields) => nameAndDescription(this, itemIndex, fields),
		'Update Fields is empty: add Name or Description to change',
	);
}
