import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toId } from '../validation';

/** Lead statuses of the list filter. */
export const LEAD_STATUSES = [
	'created',
	'scheduled',
	'processing',
	'completed',
	'rescheduled',
	'reached-max-retries',
	'blacklisted',
] as const;

/** Statuses a lead may be set to. */
export const SETTABLE_LEAD_STATUSES = ['created', 'completed', 'reached-max-retries'] as const;

export const statusLabel = (status: string) =>
	status.charAt(0).toUpperCase() + status.slice(1).replace(/-/g, ' ');

export const leadIdField: INodeProperties = {
	displayName: 'Lead ID',
	name: 'leadId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 1234',
	description: 'Numeric ID of the lead, as returned by Lead → Create or Lead → Get Many (field ID)',
};

export function leadId(ctx: IExecuteFunctions, itemIndex: number): number {
	return toId(ctx, itemIndex, 'Lead ID', ctx.getNodeParameter('leadId', itemIndex));
}

/**
 * A phone number with the usual separators (spaces, dashes, dots, brackets)
 * left out, so "+49 151 1234-5678" is sent as +4915112345678.
 */
export function compactPhone(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/[\s\-().]/g, '');
}
