import type { INodeProperties } from 'n8n-workflow';

/**
 * Resource locators shared by the action node, its pickers and the trigger:
 * pick from a searchable list, or type an ID (or an expression).
 *
 * The ID mode has no format rule (`validation`): n8n checks such a rule before
 * every execution, in a sandbox that fails the whole execution when the machine
 * stalls it for 250 ms (n8n 2.x), which a busy n8n does. The node checks an ID
 * when it runs instead (the trigger when it is activated), naming the field.
 */

export interface LocatorOptions {
	displayName: string;
	name: string;
	/** Name of the list-search method in methods/listSearch.ts. */
	searchListMethod: string;
	description: string;
	/** What an ID looks like, shown in the empty ID field; defaults to a positive whole number. */
	placeholder?: string;
	required?: boolean;
}

/** A resource locator: pick from a searchable list, or type an ID (or an expression). */
export function idLocator(options: LocatorOptions): INodeProperties {
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
				placeholder: options.placeholder ?? 'e.g. 42',
			},
		],
	};
}

/** A locator of an object with a numeric ID; `what` names the object in the description ("The campaign"). */
export function numericIdLocator(
	displayName: string,
	name: string,
	searchListMethod: string,
	what: string,
): INodeProperties {
	return idLocator({
		displayName,
		name,
		searchListMethod,
		description: `${what}. Pick it from the list or give its numeric ID.`,
	});
}

export const UUID_PLACEHOLDER = 'e.g. 0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';

export const assistantLocator = numericIdLocator(
	'Assistant',
	'assistantId',
	'searchAssistants',
	'The assistant',
);

export const knowledgebaseLocator = numericIdLocator(
	'Knowledgebase',
	'knowledgebaseId',
	'searchKnowledgebases',
	'The knowledgebase',
);

export const documentLocator = numericIdLocator(
	'Document',
	'documentId',
	'searchDocuments',
	'The document inside the chosen knowledgebase',
);

export const toolLocator = numericIdLocator(
	'Mid Call Tool',
	'toolId',
	'searchTools',
	'The mid call tool',
);

export const campaignLocator = numericIdLocator(
	'Campaign',
	'campaignId',
	'searchCampaigns',
	'The campaign',
);

export const phoneNumberLocator = numericIdLocator(
	'Phone Number',
	'phoneNumberId',
	'searchPhoneNumbers',
	"One of the account's phone numbers",
);
