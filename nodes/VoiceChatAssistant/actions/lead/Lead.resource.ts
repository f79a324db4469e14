import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import type { ResourceModule } from '../types';
import * as create from './create.operation';

export const operations: ResourceModule['operations'] = { create };

export const description: INodeProperties[] = [
	operationPicker('lead', 'create', [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a lead in a campaign',
			description: 'Add a contact (with optional secondary contacts) to a campaign',
		},
	]),
	...create.description,
];
