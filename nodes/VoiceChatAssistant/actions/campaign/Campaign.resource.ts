import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';
import * as getMany from './getMany.operation';

export const operations: ResourceModule['operations'] = { getMany };

export const description: INodeProperties[] = [
	operationPicker('campaign', 'getMany', [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many campaigns',
			description: 'List the campaigns of the account',
		},
	]),
	...getMany.description,
];
