import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** Fields used by several operations, defined once; each operation places them with `updateDisplayOptions`. */

/** Return All / Limit of list operations. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Key/value pairs (variables, headers) as a fixed collection. */
export function keyValueCollection(
	displayName: string,
	name: string,
	description: string,
	keyName = 'key',
	keyDisplayName = 'Name',
): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${displayName.replace(/s$/, '')}`,
		default: {},
		description,
		options: [
			{
				displayName: displayName,
				name: 'values',
				values: [
					{
						displayName: keyDisplayName,
						name: keyName,
						type: 'string',
						default: '',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
					},
				],
			},
		],
	};
}

/** Variables as key/value pairs plus an optional JSON object (e.g. `{{ $json }}` for a whole input row). */
export function variablesFields(description: string): INodeProperties[] {
	return [
		keyValueCollection('Variables', 'variables', description),
		{
			displayName: 'Variables (JSON)',
			name: 'variablesJson',
			type: 'json',
			default: '{}',
			description:
				'Variables as a JSON object. An expression that returns the whole input item passes every column of the input row. Merged with the key/value pairs above (the pairs win).',
		},
	];
}

/** A phone number parameter in E.164 form (checked before sending). */
export function phoneNumberField(description: string): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +4915112345678',
		description: `${description} in E.164 form: "+", country code and number, digits only`,
	};
}

/** From Date / To Date filters (sent as `date_from` / `date_to`, YYYY-MM-DD). */
export function dateRangeFilters(noun: string): INodeProperties[] {
	return [
		{
			displayName: 'From Date',
			name: 'date_from',
			type: 'dateTime',
			default: '',
			description: `Only ${noun} on or after this day (sent as YYYY-MM-DD)`,
		},
		{
			displayName: 'To Date',
			name: 'date_to',
			type: 'dateTime',
			default: '',
			description: `Only ${noun} on or before this day (sent as YYYY-MM-DD)`,
		},
	];
}

/** Options sorted by their label, as n8n's editor lists a collection's options. */
export function sortedByLabel(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/**
 * Options labelled by their value, each word (parted by `_`) with a capital first letter
 * (`number` → Number, `crowded_room` → Crowded Room), in the order given.
 */
export function optionsOfValues(values: readonly string[]): INodePropertyOptions[] {
	return values.map((value) => ({
		name: value
			.split('_')
			.map((word) => word[0].toUpperCase() + word.slice(1))
			.join(' '),
		value,
	}));
}

/** A number between `minValue` and `maxValue` with two decimals; the description gives the range and the default. */
export function decimalRangeField(
	displayName: string,
	name: string,
	minValue: number,
	maxValue: number,
	defaultValue: number,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'number',
		typeOptions: { minValue, maxValue, numberPrecision: 2 },
		default: defaultValue,
		description: `${minValue}-${maxValue}, default ${defaultValue}`,
	};
}

/** The operation picker of one resource (shown when that resource is chosen). */
export function operationPicker<Operations extends object>(
	resource: string,
	defaultOperation: keyof Operations & string,
	options: Array<INodePropertyOptions & { value: keyof Operations & string }>,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}
