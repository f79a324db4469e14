import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { operationPicker } from '../descriptions';
import type { ResourceModule } from './types';

/**
 * A resource's description: its operation picker, then every operation's
 * fields in the order of `operations` (the picker's values are checked against
 * `operations` when compiling).
 */
export function resourceDescription<Operations extends ResourceModule['operations']>(
	resource: string,
	defaultOperation: keyof Operations & string,
	operations: Operations,
	options: Array<INodePropertyOptions & { value: keyof Operations & string }>,
): INodeProperties[] {
	return [
		operationPicker<Operations>(resource, defaultOperation, options),
		...Object.values(operations).flatMap((operation) => operation.description),
	];
}
