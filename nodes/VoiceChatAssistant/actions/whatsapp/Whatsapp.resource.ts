import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';

export const operations: ResourceModule['operations'] = {};

export const description: INodeProperties[] = [
	operationPicker('whatsapp', 'getSenders', [
		{
			name: 'Get Senders',
			value: 'getSenders',
			action: 'Get WhatsApp senders',
			description: 'List the WhatsApp Business senders of the account',
		},
	]),
];
