import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { toolLocator } from '../../descriptions';
import { refuse } from '../validation';
import { toolBody, toolFields, toolId } from './shared';

const properties: INodeProperties[] = [
	toolLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Fields to change; Headers and Parameters replace the existing lists',
		options: Object.values(toolFields).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tool'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = toolId(this, itemIndex);
	const body = toolBody(
		this,
		itemIndex,
		this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	if (!Object.keys(body).length)
		refuse(this, itemIndex, 'Update Fields is empty: add a field to change');
	return unwrap(await apiRequest.call(this, 'PUT', `/api/user/tools/${id}`, { body, itemIndex }));
}
