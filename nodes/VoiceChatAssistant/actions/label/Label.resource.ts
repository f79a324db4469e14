import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { create, getMany, update, delete: del };

export const description = resourceDescription('label', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a label',
		description: 'Create a label for assistants',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a label',
		description: 'Delete a label; the assistants are kept and lose the label',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many labels',
		description: 'List the labels of the account with their number of assistants',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a label',
		description: 'Rename a label or change its color',
	},
]);
