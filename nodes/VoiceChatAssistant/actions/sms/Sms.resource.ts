import { withCost } from '../../descriptions';
import { resourceDescription } from '../resourceDescription';
import * as send from './send.operation';

export const operations = { send };

export const description = resourceDescription('sms', 'send', operations, [
	{
		name: 'Send',
		value: 'send',
		action: 'Send an SMS',
		description: withCost(
			'Send a text message from an SMS-capable number of the account',
			'sendSms',
		),
	},
]);
