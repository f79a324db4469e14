import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as getMany from './getMany.operation';

export const operations: ResourceModule['operations'] = { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['campaign'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many campaigns',
				description: 'List the campaigns of the account',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
