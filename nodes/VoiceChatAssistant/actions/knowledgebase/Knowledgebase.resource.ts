import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { create, delete: deleteOperation, get, getMany, update };

export const description = resourceDescription('knowledgebase', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a knowledgebase',
		description: 'Create an empty knowledgebase',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a knowledgebase',
		description: 'Delete a knowledgebase and its documents',
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a knowledgebase',
		description: 'Get a knowledgebase with its status and counts',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many knowledgebases',
		description: 'List the knowledgebases of the account',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a knowledgebase',
		description: 'Change the name or description of a knowledgebase',
	},
]);
