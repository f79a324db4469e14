import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit } from '../../descriptions';
import { readList } from '../limit';
import { simplifyCampaign } from '../simplify';
import type { Simplify } from '../types';

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['getMany'] } },
	returnAllOrLimit,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await readList(this, itemIndex, '/api/user/campaigns');
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyCampaign,
	fields: 'id, name, status, calls in parallel, hours, days, retries, created and updated at',
};
