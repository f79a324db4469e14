import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as sendMessage from './sendMessage.operation';

export const operations: ResourceModule['operations'] = { create, get, getMany, sendMessage };

export const description: INodeProperties[] = [
	operationPicker('conversation', 'getMany', [
		{
			name: 'Create',
			value: 'create',
			action: 'Start a conversation with an assistant',
			description: 'Start a text conversation with an assistant',
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a conversation s messages',
			description: 'Get the message history of a conversation',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many conversations',
			description: "List the conversations of the account's assistants",
		},
		{
			name: 'Send Message',
			value: 'sendMessage',
			action: 'Send a message in a conversation',
			description: "Send a user message to a conversation and get the assistant's reply",
		},
	]),
	...create.description,
	...get.description,
	...getMany.description,
	...sendMessage.description,
];
