import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	CALL_STATUSES,
	CALL_STATUS_OPTIONS,
	CALL_TYPES,
	callTypeFilter,
	dateRangeFilters,
} from '../../descriptions';
import { getManyFields, getManyFiltered } from '../getMany';
import { readOptionalId } from '../parameters';
import { checkEnum } from '../validation';
import { simplifyCall } from '../simplify';
import type { Simplify } from '../types';

const properties: INodeProperties[] = getManyFields([
	...dateRangeFilters('calls'),
	{
		displayName: 'Assistant ID',
		name: 'assistant_id',
		type: 'number',
		default: 0,
		description: 'Only calls of this assistant (numeric ID)',
	},
	{
		displayName: 'Campaign ID',
		name: 'campaign_id',
		type: 'number',
		default: 0,
		description: 'Only calls of this campaign (numeric ID)',
	},
	{
		displayName: 'Client Phone Number',
		name: 'phone_number',
		type: 'string',
		default: '',
		description: 'Only calls with this client phone number',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'completed',
		description: 'Only calls with this status',
		options: CALL_STATUS_OPTIONS,
	},
	callTypeFilter,
]);

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyFiltered(this, itemIndex, '/api/user/calls', (filters, qs) => {
		checkEnum(this, itemIndex, 'Status', filters.status, CALL_STATUSES);
		checkEnum(this, itemIndex, 'Type', filters.type, CALL_TYPES);
		if (filters.status) qs.status = filters.status;
		if (filters.type) qs.type = filters.type;
		if (filters.phone_number) qs.phone_number = String(filters.phone_number).trim();
		for (const [key, label] of [
			['assistant_id', 'Assistant ID'],
			['campaign_id', 'Campaign ID'],
		] as const) {
			const id = readOptionalId(this, itemIndex, label, filters[key]);
			if (id) qs[key] = id;
		}
	});
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyCall,
	fields:
		'id, type, status, duration, assistant, client number, created at, extracted variables, summary, transcript as one string',
};
