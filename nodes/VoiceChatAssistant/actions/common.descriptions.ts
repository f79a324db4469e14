import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Fields used by several operations, defined once. Each operation places them
 * with `updateDisplayOptions`.
 */

interface LocatorOptions {
	displayName: string;
	name: string;
	/** Name of the list-search method in methods/listSearch.ts. */
	searchListMethod: string;
	description: string;
	/** What an ID looks like; defaults to a positive whole number. */
	idPattern?: { regex: string; errorMessage: string; placeholder: string };
	required?: boolean;
}

/** A resource locator: pick from a searchable list, or type an ID (or an expression). */
export function idLocator(options: LocatorOptions): INodeProperties {
	const pattern = options.idPattern ?? {
		regex: '^\\s*[0-9]+\\s*$',
		errorMessage: 'Enter a numeric ID, e.g. 42',
		placeholder: 'e.g. 42',
	};
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select ${options.displayName.replace(/ (ID|UUID)$/, '').toLowerCase()}...`,
				typeOptions: {
					searchListMethod: options.searchListMethod,
					searchable: true,
				},
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: pattern.placeholder,
				validation: [
					{
						type: 'regex',
						properties: { regex: pattern.regex, errorMessage: pattern.errorMessage },
					},
				],
			},
		],
	};
}

export const UUID_PATTERN = {
	regex: '^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$',
	errorMessage: 'Enter a UUID, e.g. 0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c',
	placeholder: 'e.g. 0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c',
};

export const assistantLocator = idLocator({
	displayName: 'Assistant',
	name: 'assistantId',
	searchListMethod: 'searchAssistants',
	description: 'The assistant. Pick it from the list or give its numeric ID.',
});

export const knowledgebaseLocator = idLocator({
	displayName: 'Knowledgebase',
	name: 'knowledgebaseId',
	searchListMethod: 'searchKnowledgebases',
	description: 'The knowledgebase. Pick it from the list or give its numeric ID.',
});

export const documentLocator = idLocator({
	displayName: 'Document',
	name: 'documentId',
	searchListMethod: 'searchDocuments',
	description: 'The document inside the chosen knowledgebase. Pick it from the list or give its numeric ID.',
});

export const toolLocator = idLocator({
	displayName: 'Mid Call Tool',
	name: 'toolId',
	searchListMethod: 'searchTools',
	description: 'The mid call tool. Pick it from the list or give its numeric ID.',
});

export const campaignLocator = idLocator({
	displayName: 'Campaign',
	name: 'campaignId',
	searchListMethod: 'searchCampaigns',
	description: 'The campaign. Pick it from the list or give its numeric ID.',
});

export const phoneNumberLocator = idLocator({
	displayName: 'Phone Number',
	name: 'phoneNumberId',
	searchListMethod: 'searchPhoneNumbers',
	description: 'One of the account\'s phone numbers. Pick it from the list or give its numeric ID.',
});

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

/** The limit of a list operation, or undefined for Return All. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return undefined;
	return ctx.getNodeParameter('limit', itemIndex, 50) as number;
}

/** Cuts a bare-array answer to the limit (undefined: all). */
export function applyLimit<T>(list: T[], limit: number | undefined): T[] {
	return limit === undefined ? list : list.slice(0, limit);
}

/** The list in an answer: a bare array, or `{data: [...]}`. */
export function asList(response: unknown): IDataObject[] {
	if (Array.isArray(response)) return response as IDataObject[];
	const data = (response as IDataObject | undefined)?.data;
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}

/** The record in an answer: `{data: {...}}` / `{message, data: {...}}`, or the bare object. */
export function unwrap(response: unknown): IDataObject {
	if (response && typeof response === 'object' && !Array.isArray(response)) {
		const data = (response as IDataObject).data;
		if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
		return response as IDataObject;
	}
	return { result: response as IDataObject[string] };
}

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
