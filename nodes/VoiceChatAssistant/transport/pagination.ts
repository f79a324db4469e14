import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { mapInOrder } from './concurrency';
import type { RequestContext } from './credentials';
import type { InFlightSlots } from './concurrency';
import { apiRequest } from './request';
import type { ApiRequestOptions } from './request';

/** The pagination envelope of the list endpoints. */
export interface PageEnvelope<T = IDataObject> {
	current_page?: number;
	data: T[];
	next_page_url?: string | null;
	last_page?: number;
	total?: number;
}

export const MAX_PER_PAGE = 100;

/** Page number of a `next_page_url`. */
function nextPageNumber(nextPageUrl: string, current: number): number {
	const match = /[?&]page=(\d+)/.exec(nextPageUrl);
	return match ? Number(match[1]) : current + 1;
}

/** Pages of one Return All read at the same time (the credential's rate limit still applies). */
export const PAGES_IN_FLIGHT = 3;

/**
 * Reads a paginated list. With `limit` undefined it reads every page
 * (per_page 100) until `next_page_url` is null: once the first page has told
 * how many pages there are (`last_page`), the others are read a few at a time
 * and kept in page order; pages that appear while reading are read after
 * them, one by one. With a limit it reads page after page and stops as soon as
 * it has enough. Every page is requested on the credential's base URL (only
 * the page number is taken from `next_page_url`), so the API key is never
 * sent to a host named by a response. `slots`: see ApiRequestOptions.
 */
export async function apiRequestAllItems<T = IDataObject>(
	this: RequestContext,
	path: string,
	qs: IDataObject,
	limit: number | undefined,
	itemIndex?: number,
	slots?: InFlightSlots,
): Promise<T[]> {
	const perPage = limit === undefined ? MAX_PER_PAGE : Math.max(1, Math.min(MAX_PER_PAGE, limit));
	const readPage = async (page: number) =>
		await apiRequest.call<
			RequestContext,
			[IHttpRequestMethods, string, ApiRequestOptions],
			Promise<PageEnvelope<T>>
		>(this, 'GET', path, { qs: { ...qs, per_page: perPage, page }, itemIndex, slots });
	const dataOf = (envelope: PageEnvelope<T> | undefined) =>
		Array.isArray(envelope?.data) ? envelope.data : [];

	const results: T[] = [];
	let page = 1;
	let envelope = await readPage(page);
	const lastPage = Number(envelope?.last_page);
	if (
		limit === undefined &&
		envelope?.next_page_url &&
		dataOf(envelope).length &&
		Number.isInteger(lastPage) &&
		lastPage > 1
	) {
		results.push(...dataOf(envelope));
		const pages = Array.from({ length: lastPage - 1 }, (_, i) => i + 2);
		const envelopes = await mapInOrder(pages, PAGES_IN_FLIGHT, readPage);
		for (const each of envelopes) results.push(...dataOf(each));
		page = lastPage;
		envelope = envelopes[envelopes.length - 1];
		if (!envelope?.next_page_url || dataOf(envelope).length === 0) return results;
		page = advance(envelope.next_page_url, page);
		if (page === 0) return results;
		envelope = await readPage(page);
	}
	for (;;) {
		const data = dataOf(envelope);
		results.push(...data);
		if (limit !== undefined && results.length >= limit) return results.slice(0, limit);
		const next = envelope?.next_page_url;
		if (!next || data.length === 0) return results;
		page = advance(next, page);
		if (page === 0) return results;
		envelope = await readPage(page);
	}
}

/** The page after `current`, from a `next_page_url`; 0 when it does not move forward. */
function advance(nextPageUrl: string, current: number): number {
	const following = nextPageNumber(nextPageUrl, current);
	return following > current ? following : 0;
}
