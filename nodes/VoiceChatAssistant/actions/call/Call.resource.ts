import type { INodeProperties } from 'n8n-workflow';

import { operationPicker, withCost } from '../../descriptions';
import type { ResourceModule } from '../types';
import * as del from './delete.operation';
import * as getRaw from './get.operation';
import * as getManyRaw from './getMany.operation';
import * as make from './make.operation';
import { simplifyCall, withSimplify } from '../simplify';

const get = withSimplify(
	'call',
	'get',
	getRaw,
	simplifyCall,
	'id, type, status, duration, assistant, client number, created at, extracted variables, summary, transcript as one string',
);
const getMany = withSimplify(
	'call',
	'getMany',
	getManyRaw,
	simplifyCall,
	'id, type, status, duration, assistant, client number, created at, extracted variables, summary, transcript as one string',
);

export const operations: ResourceModule['operations'] = { delete: del, get, getMany, make };

export const description: INodeProperties[] = [
	operationPicker('call', 'getMany', [
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
	]),
	...del.description,
	...get.description,
	...getMany.description,
	...make.description,
];
