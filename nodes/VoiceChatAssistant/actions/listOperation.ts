import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../transport';
import { returnAllOrLimit } from '../descriptions';
import { applyLimit, readLimit } from './limit';
import type { OperationModule } from './types';

/**
 * An operation that reads one unpaginated list (a bare array or `{data: [...]}`)
 * and outputs one item per element, with Return All / Limit. `fields` and
 * `query` add filters.
 */
export function listOperation(
	resource: string,
	operation: string,
	path: string,
	fields: INodeProperties[] = [],
	query?: (ctx: IExecuteFunctions, itemIndex: number) => IDataObject,
): OperationModule {
	return {
		description: updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, [
			...fields,
			...returnAllOrLimit,
		]),
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
			const qs = query ? query(this, itemIndex) : undefined;
			const list = asList(await apiRequest.call(this, 'GET', path, { qs, itemIndex }));
			return applyLimit(list, readLimit(this, itemIndex));
		},
	};
}
