import { listOperation } from '../listOperation';
import { simplifyCampaign } from '../simplify';
import type { Simplify } from '../types';

export const { description, execute } = listOperation('campaign', 'getMany', '/api/user/campaigns');

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyCampaign,
	fields: 'id, name, status, calls in parallel, hours, days, retries, created and updated at',
};
