import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, apiRequestAllItems, messageOf, unwrap } from '../../transport';
import { idLocator, returnAllOrLimit } from '../../descriptions';
import { createOnce } from '../../transport/createOnce';
import { readLimit } from '../limit';
import type { OperationModule } from '../types';
import { checkEnum, checkMaxLength, checkRequired, readLocatorId, refuse } from '../validation';

/**
 * Folders and labels: the two ways of grouping assistants. They have the same
 * record (`{id, name, color, assistants_count}`) and the same four endpoints,
 * so both resources are built here from their names.
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
	/** What deleting does to the assistants. */
	onDelete: string;
}

const colorOptions = COLORS.map((color) => ({
	name: color.charAt(0).toUpperCase() + color.slice(1),
	value: color,
}));

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

function show(kind: GroupKind, operation: string, properties: INodeProperties[]) {
	return updateDisplayOptions(
		{ show: { resource: [kind.resource], operation: [operation] } },
		properties,
	);
}

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

export function groupOperations(kind: GroupKind): Record<string, OperationModule> {
	const idOf = (ctx: IExecuteFunctions, itemIndex: number) =>
		readLocatorId(ctx, itemIndex, `${kind.resource}Id`, kind.noun);
	return {
		create: {
			description: show(kind, 'create', [
				{ ...nameField(kind), required: true },
				{
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					placeholder: 'Add Option',
					default: {},
					options: [colorField],
				},
			]),
			async execute(this: IExecuteFunctions, itemIndex: number) {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				const body = groupBody(this, itemIndex, {
					name: this.getNodeParameter('name', itemIndex, ''),
					color: options.color,
				});
				return await createOnce(this, itemIndex, {
					path: singular(kind),
					body,
					noun: kind.resource,
					policy: {
						kind: 'findCreated',
						candidates: async () =>
							(await apiRequestAllItems.call(
								this,
								`/api/user/${kind.resource}s`,
								{},
								undefined,
								itemIndex,
							)) as IDataObject[],
						matches: (candidate) => candidate.name === body.name,
					},
				});
			},
		},
		getMany: {
			description: show(kind, 'getMany', returnAllOrLimit),
			async execute(this: IExecuteFunctions, itemIndex: number) {
				return (await apiRequestAllItems.call(
					this,
					`/api/user/${kind.resource}s`,
					{},
					readLimit(this, itemIndex),
					itemIndex,
				)) as IDataObject[];
			},
		},
		update: {
			description: show(kind, 'update', [
				locator(kind),
				{
					displayName: 'Update Fields',
					name: 'updateFields',
					type: 'collection',
					placeholder: 'Add Field',
					default: {},
					options: [colorField, nameField(kind)],
				},
			]),
			async execute(this: IExecuteFunctions, itemIndex: number) {
				const id = idOf(this, itemIndex);
				const body = groupBody(
					this,
					itemIndex,
					this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
				);
				if (!Object.keys(body).length)
					refuse(this, itemIndex, 'Update Fields is empty: add Color or Name to change');
				return unwrap(await apiRequest.call(this, 'PUT', singular(kind, id), { body, itemIndex }));
			},
		},
		delete: {
			description: show(kind, 'delete', [locator(kind)]),
			async execute(this: IExecuteFunctions, itemIndex: number) {
				const id = idOf(this, itemIndex);
				const answer = (await apiRequest.call(this, 'DELETE', singular(kind, id), {
					itemIndex,
				})) as IDataObject;
				return { deleted: true, id, ...messageOf(answer) };
			},
		},
	};
}

/** The operation picker and fields of a folder or label resource. */
export function groupResource(kind: GroupKind) {
	const operations = groupOperations(kind);
	const lower = kind.resource;
	return {
		operations,
		options: [
			{
				name: 'Create',
				value: 'create',
				action: `Create a ${lower}`,
				description: `Create a ${lower} for assistants`,
			},
			{
				name: 'Delete',
				value: 'delete',
				action: `Delete a ${lower}`,
				description: `Delete a ${lower}; ${kind.onDelete}`,
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: `Get many ${lower}s`,
				description: `List the ${lower}s of the account with their number of assistants`,
			},
			{
				name: 'Update',
				value: 'update',
				action: `Update a ${lower}`,
				description: `Rename a ${lower} or change its color`,
			},
		],
	};
}
