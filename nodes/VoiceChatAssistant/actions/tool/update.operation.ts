import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { toolLocator } from '../../descriptions';
import { updateFieldsCollection } from '../commonFields';
import { putUpdateFields } from '../update';
import { toolBody, toolFields, toolId } from './shared';

const properties: INodeProperties[] = [
	toolLocator,
	updateFieldsCollection(
		Object.values(toolFields).sort((a, b) => a.displayName.localeCompare(b.displayName)),
		'Fields to change; Headers and Parameters replace the existing lists',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tool'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = toolId(this, itemIndex);
	return await putUpdateFields(
		this,
		itemIndex,
		`/api/user/tools/${id}`,
		(fields) => toolBody(this, itemIndex, fields),
		'Update Fields is empty: add a field to change',
	);
}
