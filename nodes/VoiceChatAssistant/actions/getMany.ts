import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequestAllItems } from '../transport';
import { returnAllOrLimit } from '../descriptions';
import { filtersCollection } from './commonFields';
import { readLimit } from './limit';
import { dateRangeQuery } from './parameters';

/**
 * The Get Many of calls, conversations and leads: Return All / Limit and a
 * Filters collection (its date range included), read page by page. Each
 * operation names its own filters and turns them into query values.
 */

/** The fields of a Get Many: Return All, Limit and the given filters. */
export function getManyFields(filters: INodeProperties[]): INodeProperties[] {
	return [...returnAllOrLimit, filtersCollection(filters)];
}

/**
 * Every record of `path` (or up to Limit) matching the Filters: `addFilters`
 * checks the operation's filters and puts them into the query; the date range
 * follows.
 */
export async function getManyFiltered(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
	addFilters: (filters: IDataObject, qs: IDataObject) => void,
): Promise<IDataObject[]> {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	addFilters(filters, qs);
	Object.assign(qs, dateRangeQuery(ctx, itemIndex, filters));
	return (await apiRequestAllItems.call(
		ctx,
		path,
		qs,
		readLimit(ctx, itemIndex),
		itemIndex,
	)) as IDataObject[];
}
