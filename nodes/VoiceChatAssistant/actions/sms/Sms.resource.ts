import type { INodeProperties } from 'n8n-workflow';

import { operationPicker, withCost } from '../../descriptions';
import type { ResourceModule } from '../types';
import * as send from './send.operation';

export const operations: ResourceModule['operations'] = { send };

export const description: INodeProperties[] = [
	operationPicker('sms', 'send', [
		{
			name: 'Send',
			value: 'send',
			action: 'Send an SMS',
			description: withCost(
				'Send a text message from an SMS-capable number of the account',
				'sendSms',
			),
		},
	]),
	...send.description,
];
