import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, apiRequestAllItems, messageOf, unwrap } from '../transport';
import { idLocator, optionsOfValues, returnAllOrLimit } from '../descriptions';
import { createOnce } from '../transport/createOnce';
import { readLocatorId } from './parameters';
import { checkEnum, checkMaxLength, checkRequired, refuse } from './validation';

/**
 * Folders and labels: the two ways of grouping assistants. They have the same
 * record (`{id, name, color, assistants_count}`) and the same four endpoints:
 * the operation files of both resources use the fields and steps here.
 */

export const COLORS = [
	'amber',
	'blue',
	'gray',
	'green',
	'orange',
	'pink',
	'purple',
	'red',
	'slate',
	'teal',
] as const;

export interface GroupKind {
	/** Resource value: `folder` or `label`. */
	resource: 'folder' | 'label';
	/** "Folder" or "Label". */
	noun: 'Folder' | 'Label';
}

export const FOLDER: GroupKind = { resource: 'folder', noun: 'Folder' };
export const LABEL: GroupKind = { resource: 'label', noun: 'Label' };

const colorOptions = optionsOfValues(COLORS);

function locator(kind: GroupKind): INodeProperties {
	return idLocator({
		displayName: kind.noun,
		name: `${kind.resource}Id`,
		searchListMethod: kind.resource === 'folder' ? 'searchFolders' : 'searchLabels',
		description: `The ${kind.resource} to change or delete`,
	});
}

function nameField(kind: GroupKind): INodeProperties {
	return {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: kind.resource === 'folder' ? 'e.g. Sales' : 'e.g. German',
		description: `Name of the ${kind.resource}, at most 255 characters, unique in the account`,
	};
}

const colorField: INodeProperties = {
	displayName: 'Color',
	name: 'color',
	type: 'options',
	default: 'gray',
	options: colorOptions,
	description: 'Color shown in the dashboard',
};

/** The API body from Name and Color, checked before anything is sent. */
function groupBody(ctx: IExecuteFunctions, itemIndex: number, values: IDataObject): IDataObject {
	const body: IDataObject = {};
	if (values.name !== undefined) {
		const name = String(values.name).trim();
		checkRequired(ctx, itemIndex, 'Name', name);
		checkMaxLength(ctx, itemIndex, 'Name', name, 255);
		body.name = name;
	}
	if (values.color !== undefined && values.color !== '') {
		checkEnum(ctx, itemIndex, 'Color', values.color, COLORS);
		body.color = values.color;
	}
	return body;
}

function singular(kind: GroupKind, id?: number) {
	return `/api/user/${kind.resource}${id === undefined ? '' : `/${id}`}`;
}

const idOf = (ctx: IExecuteFunctions, itemIndex: number, kind: GroupKind) =>
	readLocatorId(ctx, itemIndex, `${kind.resource}Id`, kind.noun);

/** The fields of Create: Name, and Color among the options. */
export function createFields(kind: GroupKind): INodeProperties[] {
	return [
		{ ...nameField(kind), required: true },
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [colorField],
		},
	];
}

export async function createGroup(
	ctx: IExecuteFunctions,
	itemIndex: number,
	kind: GroupKind,
): Promise<IDataObject> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const body = groupBody(ctx, itemIndex, {
		name: ctx.getNodeParameter('name', itemIndex, ''),
		color: options.color,
	});
	return await createOnce(ctx, itemIndex, {
		path: singular(kind),
		body,
		noun: kind.resource,
		policy: {
			kind: 'findCreated',
			candidates: async () => await listGroups(ctx, itemIndex, kind),
			matches: (candidate) => candidate.name === body.name,
		},
	});
}

export const getManyFields = returnAllOrLimit;

export async function listGroups(
	ctx: IExecuteFunctions,
	itemIndex: number,
	kind: GroupKind,
	limit?: number,
): Promise<IDataObject[]> {
	return (await apiRequestAllItems.call(
		ctx,
		`/api/user/${kind.resource}s`,
		{},
		limit,
		itemIndex,
	)) as IDataObject[];
}

/** The fields of Update: the folder or label, and Color and Name to change. */
export function updateFields(kind: GroupKind): INodeProperties[] {
	return [
		locator(kind),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [colorField, nameField(kind)],
		},
	];
}

export async function updateGroup(
	ctx: IExecuteFunctions,
	itemIndex: number,
	kind: GroupKind,
): Promise<IDataObject> {
	const id = idOf(ctx, itemIndex, kind);
	const body = groupBody(
		ctx,
		itemIndex,
		ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
	);
	if (!Object.keys(body).length)
		refuse(ctx, itemIndex, 'Update Fields is empty: add Color or Name to change');
	return unwrap(await apiRequest.call(ctx, 'PUT', singular(kind, id), { body, itemIndex }));
}

export const deleteFields = (kind: GroupKind): INodeProperties[] => [locator(kind)];

export async function deleteGroup(
	ctx: IExecuteFunctions,
	itemIndex: number,
	kind: GroupKind,
): Promise<IDataObject> {
	const id = idOf(ctx, itemIndex, kind);
	const response = (await apiRequest.call(ctx, 'DELETE', singular(kind, id), {
		itemIndex,
	})) as IDataObject;
	return { deleted: true, id, ...messageOf(response) };
}
