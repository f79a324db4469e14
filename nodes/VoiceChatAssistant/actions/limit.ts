import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, asList } from '../transport';

/** The limit of a list operation, or undefined for Return All. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return undefined;
	return ctx.getNodeParameter('limit', itemIndex, 50) as number;
}

/** Cuts a bare-array answer to the limit (undefined: all). */
export function applyLimit<T>(list: T[], limit: number | undefined): T[] {
	return limit === undefined ? list : list.slice(0, limit);
}

/**
 * One unpaginated list (a bare array or `{data: [...]}`), cut to Return All /
 * Limit: one output item per element.
 */
export async function readList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
	qs?: IDataObject,
): Promise<IDataObject[]> {
	const list = asList(await apiRequest.call(ctx, 'GET', path, { qs, itemIndex }));
	return applyLimit(list, readLimit(ctx, itemIndex));
}
