import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as create from './create.operation';

export const operations: ResourceModule['operations'] = { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['lead'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a lead in a campaign',
				description: 'Add a contact (with optional secondary contacts) to a campaign',
			},
		],
		default: 'create',
	},
	...create.description,
];
