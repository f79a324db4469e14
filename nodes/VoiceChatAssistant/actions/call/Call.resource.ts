import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as make from './make.operation';

export const operations: ResourceModule['operations'] = { get, getMany, make };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['call'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a call',
				description: 'Get a call with its transcript, variables and costs',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many calls',
				description: 'List calls, optionally filtered',
			},
			{
				name: 'Make',
				value: 'make',
				action: 'Start an outbound phone call',
				description: 'Have an outbound assistant call a phone number now',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
	...make.description,
];
