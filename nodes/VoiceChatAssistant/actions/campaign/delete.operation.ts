import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { campaignLocator } from '../../descriptions';
import { campaignId } from './shared';

const properties: INodeProperties[] = [
	{
		...campaignLocator,
		description:
			'The campaign to delete, permanently. All its leads are deleted too, and a running campaign is stopped first. Pick it from the list or give its numeric ID.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = campaignId(this, itemIndex);
	const answer = await apiRequest.call(this, 'DELETE', `/api/user/campaign/${id}`, { itemIndex });
	return { deleted: true, id, ...messageOf(answer) };
}
