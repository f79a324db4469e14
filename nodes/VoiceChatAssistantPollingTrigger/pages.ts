import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest, asList } from '../VoiceChatAssistant/transport';

/** Most pages one poll reads of one list: a poll's cost has a ceiling whatever happens. */
export const MAX_PAGES_PER_POLL = 10;

export const PER_PAGE = 100;

/**
 * Reads a newest-first list page by page until `enough` says the rest is
 * known, the list ends, or MAX_PAGES_PER_POLL pages were read. Both forms of
 * pagination are followed: SPEC's page numbers (`next_page_url`) and the
 * cursor (`next_cursor`) some deployments answer with.
 */
export async function readNewest(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	enough: (page: IDataObject[]) => boolean,
	maxPages = MAX_PAGES_PER_POLL,
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	let query: IDataObject = { ...qs, per_page: PER_PAGE, page: 1 };
	for (let read = 1; ; read++) {
		const answer = (await apiRequest.call(ctx, 'GET', path, { qs: query })) as IDataObject;
		const page = asList(answer);
		items.push(...page);
		if (!page.length || enough(page) || read >= maxPages) return items;
		if (typeof answer.next_cursor === 'string' && answer.next_cursor) {
			query = { ...qs, per_page: PER_PAGE, cursor: answer.next_cursor };
		} else if (answer.next_page_url) {
			query = { ...query, page: Number(query.page ?? 1) + 1 };
		} else {
			return items;
		}
	}
}
