import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { create, delete: deleteOperation, get, getMany, update };

export const description = resourceDescription('tool', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a mid-call tool',
		description: 'Create an HTTP endpoint an assistant can call during a call',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a mid-call tool',
		description: 'Delete a mid call tool',
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a mid-call tool',
		description: 'Get a mid call tool',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many mid-call tools',
		description: 'List the mid call tools of the account',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a mid-call tool',
		description: 'Change a mid call tool',
	},
]);
