import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { create, delete: deleteOperation, get, getMany, update };

export const description = resourceDescription('sipTrunk', 'getMany', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a SIP trunk',
		description: 'Connect your own SIP trunk (extension or number) to the account',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a SIP trunk',
		description: 'Delete a SIP trunk at once; irreversible, assistants using it lose it',
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a SIP trunk',
		description: 'Get a SIP trunk with its settings (the password is never returned)',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many SIP trunks',
		description: 'List the SIP trunks of the account',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a SIP trunk',
		description: 'Change settings of a SIP trunk',
	},
]);
