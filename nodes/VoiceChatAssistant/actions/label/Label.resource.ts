import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';

export const operations: ResourceModule['operations'] = {};

export const description: INodeProperties[] = [
	operationPicker('label', 'getMany', [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many labels',
			description: 'List the labels that tag assistants',
		},
	]),
];
