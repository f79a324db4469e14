import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLocatorId } from '../parameters';
import { checkMaxLength } from '../validation';

export const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Name of the knowledgebase, at most 255 characters',
};

export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	description: 'What the knowledgebase holds, at most 255 characters',
};

export function knowledgebaseId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'knowledgebaseId', 'Knowledgebase');
}

/** Name and description as given, checked against the 255-character limit. */
export function nameAndDescription(
	ctx: IExecuteFunctions,
	itemIndex: number,
	values: IDataObject,
): IDataObject {
	const body: IDataObject = {};
	for (const [key, label] of [
		['name', 'Name'],
		['description', 'Description'],
	] as const) {
		if (values[key] === undefined) continue;
		checkMaxLength(ctx, itemIndex, label, values[key], 255);
		body[key] = values[key];
	}
	return body;
}
