import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dateRangeFilters } from '../../descriptions';
import { getManyFields, getManyFiltered } from '../getMany';
import { readOptionalId } from '../parameters';
import { checkEnum } from '../validation';
import { LEAD_STATUSES, statusLabel } from './shared';
import { simplifyLead } from '../simplify';
import type { Simplify } from '../types';

const properties: INodeProperties[] = getManyFields([
	...dateRangeFilters('leads created'),
	{
		displayName: 'Campaign ID',
		name: 'campaign_id',
		type: 'number',
		default: 0,
		description: 'Only leads of this campaign (numeric ID, see Campaign → Get Many)',
	},
	{
		displayName: 'Phone Number',
		name: 'phone_number',
		type: 'string',
		default: '',
		placeholder: 'e.g. +49151',
		description: 'Only leads whose phone number contains this text (partial match)',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'created',
		description: 'Only leads with this status',
		options: LEAD_STATUSES.map((status) => ({ name: statusLabel(status), value: status })),
	},
]);

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyFiltered(this, itemIndex, '/api/user/leads', (filters, qs) => {
		checkEnum(this, itemIndex, 'Status', filters.status, LEAD_STATUSES);
		if (filters.status) qs.status = filters.status;
		const campaignId = readOptionalId(this, itemIndex, 'Campaign ID', filters.campaign_id);
		if (campaignId) qs.campaign_id = campaignId;
		const phone = String(filters.phone_number ?? '').trim();
		if (phone) qs.phone_number = phone;
	});
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyLead,
	fields: 'id, campaign, phone number, status, variables, created and updated at, campaign name',
};
