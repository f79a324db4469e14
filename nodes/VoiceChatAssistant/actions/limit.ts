import type { IExecuteFunctions } from 'n8n-workflow';

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
