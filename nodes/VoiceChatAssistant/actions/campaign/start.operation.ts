import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { campaignLocator, costNotice } from '../../descriptions';
import { updateStatus } from './shared';

const properties: INodeProperties[] = [
	costNotice('startCampaign', 'startCampaignNotice'),
	{
		...campaignLocator,
		description:
			"The campaign to start. Costs money and reaches people: the assistant phones the campaign's leads and every call is charged to the account balance. Needs leads to call and a positive balance. Pick it from the list or give its numeric ID.",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['start'] } },
	properties,
);

/** Never sent twice after an uncertain failure (a timeout, a reset connection, a 502 or 504). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await updateStatus(this, itemIndex, 'start');
}
