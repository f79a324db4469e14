import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiRequest, asList } from '../transport';

/** Helpers of the pickers: read a list, filter it by what the user typed, name its entries. */

export function matches(filter: string | undefined, ...values: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return values.some(
		(v) => v !== undefined && v !== null && String(v).toLowerCase().includes(needle),
	);
}

export async function listOf(
	ctx: ILoadOptionsFunctions,
	path: string,
	qs?: IDataObject,
): Promise<IDataObject[]> {
	return asList(await apiRequest.call(ctx, 'GET', path, { qs }));
}

export function toResults(
	list: IDataObject[],
	filter: string | undefined,
	name: (entry: IDataObject) => string,
	value: (entry: IDataObject) => string = (entry) => String(entry.id),
): INodeListSearchResult {
	const results: INodeListSearchItems[] = list
		.filter((entry) => matches(filter, name(entry), entry.id, value(entry)))
		.map((entry) => ({ name: name(entry), value: value(entry) }));
	return { results };
}
