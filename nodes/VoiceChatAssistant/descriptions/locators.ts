import type { INodeProperties } from 'n8n-workflow';

/**
 * Resource locators shared by the action node, its pickers and the trigger:
 * pick from a searchable list, or type an ID (or an expression).
 */

export interface LocatorOptions {
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
	description:
		'The document inside the chosen knowledgebase. Pick it from the list or give its numeric ID.',
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
	description: "One of the account's phone numbers. Pick it from the list or give its numeric ID.",
});
