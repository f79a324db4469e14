import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { leadId, leadIdField } from './shared';

const properties: INodeProperties[] = [
	{
		...leadIdField,
		description:
			'Numeric ID of the lead to delete, permanently (its secondary contacts are deleted too), as returned by Lead → Create or Lead → Get Many',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = leadId(this, itemIndex);
	const answer = await apiRequest.call(this, 'DELETE', `/api/user/leads/${id}`, { itemIndex });
	return { deleted: true, id, ...messageOf(answer) };
}
