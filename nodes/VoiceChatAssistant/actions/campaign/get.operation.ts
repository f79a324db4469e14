import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { campaignLocator } from '../../descriptions';
import { campaignId } from './shared';
import { simplifyCampaign } from '../simplify';
import type { Simplify } from '../types';

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['get'] } },
	[{ ...campaignLocator, description: 'The campaign to read: status, hours, days, retries' }],
);

/** The service has no get-one endpoint for campaigns: the campaign is picked out of the list. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = campaignId(this, itemIndex);
	const list = asList(await apiRequest.call(this, 'GET', '/api/user/campaigns', { itemIndex }));
	const found = list.find((campaign) => Number(campaign.id) === id);
	if (found) return found;
	throw new NodeOperationError(this.getNode(), `Campaign ${id} not found`, {
		itemIndex,
		description: 'Check that the campaign exists and belongs to the account of the credential.',
	});
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyCampaign,
	fields: 'id, name, status, calls in parallel, hours, days, retries, created and updated at',
};
