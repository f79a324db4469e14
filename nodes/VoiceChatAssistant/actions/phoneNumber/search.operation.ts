import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { returnAllOrLimit } from '../../descriptions';
import { applyLimit, readLimit } from '../limit';
import { checkEnum, refuse } from '../validation';

/** The API contract leaves the query names open; these are the ones a deployment documents (docs/api.md, section 5). */
const SEARCH_QUERY = { country: 'country_code', digits: 'contains' } as const;

const COUNTRIES: Array<[string, string]> = [
	['AU', 'Australia'],
	['CA', 'Canada'],
	['DK', 'Denmark'],
	['FI', 'Finland'],
	['IL', 'Israel'],
	['IT', 'Italy'],
	['NL', 'Netherlands'],
	['PL', 'Poland'],
	['GB', 'United Kingdom'],
	['US', 'United States'],
];

const properties: INodeProperties[] = [
	{
		displayName: 'Country',
		name: 'country',
		type: 'options',
		default: 'US',
		description: 'Country to search numbers in',
		options: COUNTRIES.map(([value, name]) => ({ name: `${name} (${value})`, value })),
	},
	{
		displayName: 'Contains Digits',
		name: 'digits',
		type: 'string',
		default: '',
		placeholder: 'e.g. 415',
		description:
			'Only numbers containing these digits (digits only, at most 10), e.g. an area code',
	},
	...returnAllOrLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['search'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const country = String(this.getNodeParameter('country', itemIndex, 'US'))
		.trim()
		.toUpperCase();
	checkEnum(
		this,
		itemIndex,
		'Country',
		country,
		COUNTRIES.map(([code]) => code),
	);
	const digits = String(this.getNodeParameter('digits', itemIndex, '')).trim();
	if (digits && !/^\d{1,10}$/.test(digits)) {
		refuse(this, itemIndex, `Contains Digits must be digits only, at most 10, got "${digits}"`);
	}
	const qs: IDataObject = { [SEARCH_QUERY.country]: country };
	if (digits) qs[SEARCH_QUERY.digits] = digits;
	return applyLimit(
		asList(await apiRequest.call(this, 'GET', '/api/user/phone-numbers/search', { qs, itemIndex })),
		readLimit(this, itemIndex),
	);
}
