import type { INodeProperties } from 'n8n-workflow';

import { sortedByLabel } from '../descriptions';

/**
 * Fields that many operations show alike: a create's required Name, and the
 * collections of optional fields under a fixed name (Options, Filters, Update
 * Fields), each with the operation's own fields.
 */

/** The required Name of a create: "Name of the <noun>, at most 255 characters". */
export function requiredNameField(noun: string): INodeProperties {
	return {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: `Name of the ${noun}, at most 255 characters`,
	};
}

/** "Options": the optional settings of an operation, read as the parameter `options`. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** "Filters" of a Get Many, shown sorted by label, read as the parameter `filters`. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: sortedByLabel(options),
	};
}

/** "Update Fields": what an Update changes, read as the parameter `updateFields`. */
export function updateFieldsCollection(
	options: INodeProperties[],
	description?: string,
): INodeProperties {
	return {
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		...(description === undefined ? {} : { description }),
		options,
	};
}
