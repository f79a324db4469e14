import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { create, getMany, update, delete: del };

export const description = resourceDescription('folder', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a folder',
		description: 'Create a folder for assistants',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a folder',
		description: 'Delete a folder; its assistants are kept, without a folder',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many folders',
		description: 'List the folders of the account with their number of assistants',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a folder',
		description: 'Rename a folder or change its color',
	},
]);
