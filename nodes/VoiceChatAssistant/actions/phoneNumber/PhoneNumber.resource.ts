import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';
import * as getMany from './getMany.operation';
import * as getManySmsCapable from './getManySmsCapable.operation';
import * as search from './search.operation';

export const operations: ResourceModule['operations'] = { getMany, getManySmsCapable, search };

export const description: INodeProperties[] = [
	operationPicker('phoneNumber', 'getMany', [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get all phone numbers of the account',
			description: 'List all phone numbers of the account',
		},
		{
			name: 'Get Many SMS-Capable',
			value: 'getManySmsCapable',
			action: 'Get sms capable phone numbers',
			description: 'List only SMS-capable numbers with an active subscription (legacy list)',
		},
		{
			name: 'Search Available',
			value: 'search',
			action: 'Search phone numbers available to buy',
			description: 'Search phone numbers available for purchase in a country',
		},
	]),
	...getMany.description,
	...getManySmsCapable.description,
	...search.description,
];
