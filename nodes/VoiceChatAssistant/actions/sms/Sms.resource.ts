import type { INodeProperties } from 'n8n-workflow';

import { operationPicker, withCost } from '../../descriptions';
import type { ResourceModule } from '../types';
import * as send from './send.operation';

export const operations = { send } satisfies ResourceModule['operations'];

export const description: INodeProperties[] = [
	operationPicker<typeof operations>('sms', 'send', [
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
