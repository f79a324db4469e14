import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toId } from '../validation';

export { LEAD_STATUSES } from '../../descriptions/leadStatuses';

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

/** What Lead → Create sends besides the phone number and the campaign. */
export interface LeadContent {
	variables: IDataObject;
	secondary_contacts: Array<{ phone_number: string; variables: IDataObject }>;
}

/** A variable value as the service shows it: numbers and strings alike, objects as JSON. */
function asText(value: unknown): string {
	if (value === null || value === undefined) return '';
	return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const quoted = (value: unknown) => JSON.stringify(asText(value));

const objectOf = (value: unknown): IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: {};

function variableDifferences(stored: unknown, sent: unknown, where: string): string[] {
	const storedVariables = objectOf(stored);
	const sentVariables = objectOf(sent);
	const names = [...new Set([...Object.keys(sentVariables), ...Object.keys(storedVariables)])];
	const differences: string[] = [];
	for (const name of names) {
		const isStored = Object.prototype.hasOwnProperty.call(storedVariables, name);
		const isSent = Object.prototype.hasOwnProperty.call(sentVariables, name);
		if (!isStored) {
			differences.push(
				`${where}variable "${name}": not stored, sent ${quoted(sentVariables[name])}`,
			);
		} else if (!isSent) {
			differences.push(
				`${where}variable "${name}": stored ${quoted(storedVariables[name])}, not sent`,
			);
		} else if (asText(storedVariables[name]) !== asText(sentVariables[name])) {
			differences.push(
				`${where}variable "${name}": stored ${quoted(storedVariables[name])}, sent ${quoted(sentVariables[name])}`,
			);
		}
	}
	return differences;
}

/**
 * How a stored lead differs from what Lead → Create sends: its variables and
 * its secondary contacts (matched by phone number, each with its variables).
 * Values are compared as text (the service may give 5 for "5"); the order of
 * variables and of contacts does not matter. Empty when they are the same.
 */
export function leadDifferences(stored: IDataObject, sent: LeadContent): string[] {
	const differences = variableDifferences(stored.variables, sent.variables, '');
	const storedContacts = (
		Array.isArray(stored.secondary_contacts) ? stored.secondary_contacts : []
	).map((contact) => objectOf(contact));
	const unmatched = [...storedContacts];
	for (const contact of sent.secondary_contacts) {
		const at = unmatched.findIndex((entry) => String(entry.phone_number) === contact.phone_number);
		if (at < 0) {
			differences.push(`secondary contact ${contact.phone_number}: not stored, sent`);
			continue;
		}
		const [match] = unmatched.splice(at, 1);
		differences.push(
			...variableDifferences(
				match.variables,
				contact.variables,
				`secondary contact ${contact.phone_number}: `,
			),
		);
	}
	for (const entry of unmatched) {
		differences.push(`secondary contact ${asText(entry.phone_number)}: stored, not sent`);
	}
	return differences;
}
