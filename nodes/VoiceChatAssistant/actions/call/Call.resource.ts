import { withCost } from '../../descriptions';
import { resourceDescription } from '../resourceDescription';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as make from './make.operation';

export const operations = { delete: del, get, getMany, make };

export const description = resourceDescription('call', 'getMany', operations, [
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a call',
		description:
			'Delete a call permanently with its transcript and recording (e.g. for a GDPR erasure request)',
	},
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
		description: withCost('Have an outbound assistant call a phone number now', 'makeCall'),
	},
]);
