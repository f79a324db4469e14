import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';

export const operations: ResourceModule['operations'] = {};

export const description: INodeProperties[] = [
	operationPicker('sipTrunk', 'getMany', [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many SIP trunks',
			description: 'List the SIP trunks of the account',
		},
	]),
];
