import { resourceDescription } from '../resourceDescription';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { create, delete: del, getMany, update };

export const description = resourceDescription('lead', 'create', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a lead in a campaign',
		description:
			'Add a contact (with optional secondary contacts) to a campaign. The assistant phones it when the campaign runs, so a lead stored twice is called twice.',
	},
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a lead',
		description: 'Delete a lead permanently, with its secondary contacts',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many leads',
		description: 'List leads, optionally filtered by status, campaign, phone number or date',
	},
	{
		name: 'Update',
		value: 'update',
		action: 'Update a lead',
		description:
			"Change a lead's status, phone number or campaign, or merge variables into its variables",
	},
]);
