import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../descriptions';
import { groupResource } from '../organisation/group';
import type { ResourceModule } from '../types';

const folder = groupResource({
	resource: 'folder',
	noun: 'Folder',
	onDelete: 'its assistants are kept, without a folder',
});

export const operations: ResourceModule['operations'] = folder.operations;

export const description: INodeProperties[] = [
	operationPicker('folder', 'getMany', folder.options),
	...Object.values(folder.operations).flatMap((operation) => operation.description),
];
