import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import { groupResource } from '../organisation/group';
import type { ResourceModule } from '../types';

const label = groupResource({
	resource: 'label',
	noun: 'Label',
	onDelete: 'the assistants are kept and lose the label',
});

export const operations: ResourceModule['operations'] = label.operations;

export const description: INodeProperties[] = [
	operationPicker('label', 'getMany', label.options),
	...Object.values(label.operations).flatMap((operation) => operation.description),
];
