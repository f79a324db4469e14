import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';

export const operations: ResourceModule['operations'] = {};

export const description: INodeProperties[] = [
	operationPicker('sms', 'send', [
		{
			name: 'Send',
			value: 'send',
			action: 'Send an SMS',
			description: 'Send a text message from a number of the account (costs money)',
		},
	]),
];
