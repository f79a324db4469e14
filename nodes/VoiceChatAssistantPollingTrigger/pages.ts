import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest, asList } from '../VoiceChatAssistant/transport';
import { getClock } from '../VoiceChatAssistant/transport/clock';

/**
 * Most list requests one poll sends for one event: a poll's cost has a ceiling
 * whatever happened while the workflow was off. A longer backlog is worked off
 * over as many polls as it needs (side reads such as recordings and chat
 * histories come on top: one per emitted item that asks for them).
 */
export const MAX_REQUESTS_PER_POLL = 10;

/**
 * Most side reads (recording downloads, chat histories) one poll makes: the
 * items past it wait for the next poll (the saved position stops before them).
 */
export const MAX_SIDE_READS_PER_POLL = 100;

export const PER_PAGE = 100;

/**
 * Reads a newest-first list page by page until `enough` says the rest is
 * known, the list ends, or `maxPages` pages were read. Both forms of
 * pagination are followed: SPEC's page numbers (`next_page_url`) and the
 * cursor (`next_cursor`) some deployments answer with.
 */
export async function readNewest(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	enough: (page: IDataObject[]) => boolean,
	maxPages = MAX_REQUESTS_PER_POLL,
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	let query: IDataObject = { ...qs, per_page: PER_PAGE, page: 1 };
	for (let read = 1; ; read++) {
		const answer = (await apiRequest.call(ctx, 'GET', path, { qs: query })) as IDataObject;
		const page = asList(answer);
		items.push(...page);
		if (!page.length || enough(page) || read >= maxPages) return items;
		const next = nextQuery(qs, query, answer);
		if (!next) return items;
		query = next;
	}
}

/** The query of the page after `answer` (cursor or page number), or undefined at the end. */
function nextQuery(
	qs: IDataObject,
	query: IDataObject,
	answer: IDataObject,
): IDataObject | undefined {
	if (typeof answer.next_cursor === 'string' && answer.next_cursor) {
		return { ...qs, per_page: PER_PAGE, cursor: answer.next_cursor };
	}
	if (answer.next_page_url) return { ...query, page: Number(query.page ?? 1) + 1 };
	return undefined;
}

/** One page of a newest-first list, with what its envelope tells. */
export interface ListPage {
	page: number;
	items: IDataObject[];
	/** The list's length when the page was answered (SPEC's `total`), when told. */
	total?: number;
	perPage: number;
	answer: IDataObject;
}

export async function readPage(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	page: number,
): Promise<ListPage> {
	const answer = (await apiRequest.call(ctx, 'GET', path, {
		qs: { ...qs, per_page: PER_PAGE, page },
	})) as IDataObject;
	const total = Number(answer.total);
	const perPage = Number(answer.per_page);
	return {
		page,
		items: asList(answer),
		total: answer.total !== undefined && answer.total !== null && total >= 0 ? total : undefined,
		perPage: perPage > 0 ? perPage : PER_PAGE,
		answer,
	};
}

/** Where a walk stands between polls (kept in the node's static data). */
export interface WalkMarks {
	/**
	 * Position from the end of the list (oldest = 0) of the oldest item at the
	 * floor, as last seen: new items at the top do not move it, so the next
	 * poll finds the floor's page in one request.
	 */
	at?: number;
	/** A backlog read newest first (cursor lists): where the next poll goes on. */
	resume?: IDataObject;
}

export interface WalkOptions extends WalkMarks {
	/** Whether an item lies below the floor (handled before): monotone along the list. */
	below(item: IDataObject): boolean;
	/** What tells items apart (the same item read twice is kept once). */
	key(item: IDataObject): string;
	ceiling?: number;
}

export interface Walked {
	/**
	 * The items above the floor in one unbroken stretch from the floor upward
	 * (newest first). Everything between the floor and the stretch's newest
	 * item is in it.
	 */
	items: IDataObject[];
	/** Position from the end of each item of the stretch, by key (lists that tell their total). */
	positions: Map<string, number>;
	/** Whether the stretch reaches the newest item of the list. */
	top: boolean;
	/** Where the next poll goes on with a backlog read newest first. */
	resume?: IDataObject;
	requests: number;
}

/**
 * Reads a newest-first list (ids, or times, grow toward the top) from the
 * floor upward, within the request ceiling.
 *
 * Page numbers with a total (SPEC's envelope): positions counted from the end
 * do not move when new items arrive at the top, and page p of size n under
 * total T holds the positions T-p·n … T-(p-1)·n-1. The first page comes
 * first (usually the floor is on it: one request). Otherwise the floor's page
 * is found from the position kept from the last poll (or by a binary search
 * over the pages), then pages are read toward the newest one; each answer's
 * own total tells which positions it holds, so when items arrived between two
 * reads the deeper page is read again (nothing is skipped, repeats are
 * dropped by key). The stretch read ends where the ceiling stops the walk.
 *
 * A cursor, or pages without a total, cannot be addressed from the end: the
 * list is read newest first; when the floor is not reached within the
 * ceiling, the next poll goes on from the last page this one read, and the
 * poll that reaches the floor returns the part it read (the oldest items).
 * Each such round starts again from the top, so a long backlog takes more
 * polls than with page numbers (about n²/2 ceilings for n ceilings of
 * backlog), but nothing is skipped.
 */
export async function walkUp(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	options: WalkOptions,
): Promise<Walked> {
	const ceiling = options.ceiling ?? MAX_REQUESTS_PER_POLL;
	let requests = 0;
	const late = pastHalfBudget(ctx);
	const read = async (page: number) => {
		requests++;
		return await readPage(ctx, path, qs, page);
	};
	const stretch = new Map<string, { item: IDataObject; position: number }>();
	const done = (top: boolean, resume?: IDataObject): Walked => {
		const kept = [...stretch.values()]
			.filter(({ item }) => !options.below(item))
			.sort((a, b) => b.position - a.position);
		const positions = new Map<string, number>();
		for (const { item, position } of kept) {
			if (position >= 0) positions.set(options.key(item), position);
		}
		return { items: kept.map(({ item }) => item), positions, top, resume, requests };
	};
	const take = (page: ListPage) => {
		page.items.forEach((item, index) => {
			const position =
				page.total === undefined ? -1 : page.total - 1 - ((page.page - 1) * page.perPage + index);
			const key = options.key(item);
			if (!stretch.has(key)) stretch.set(key, { item, position });
		});
	};
	const reachesFloor = (page: ListPage) => page.items.some((item) => options.below(item));

	if (options.resume)
		return await sweep(ctx, path, qs, options, ceiling, late, options.resume, false);

	const first = await read(1);
	if (reachesFloor(first) || !nextQuery(qs, { page: 1 }, first.answer)) {
		take(first);
		return done(true);
	}
	if (first.total === undefined || typeof first.answer.next_cursor === 'string') {
		return await sweep(ctx, path, qs, options, ceiling, late, undefined, true, first);
	}

	const n = first.perPage;
	const pageOf = (position: number, total: number) => Math.floor((total - 1 - position) / n) + 1;
	const lastPage = (total: number) => Math.max(1, Math.ceil(total / n));
	const cache = new Map<number, ListPage>([[1, first]]);
	const readCached = async (page: number) => cache.get(page) ?? (await read(page));

	// the floor's page: from the kept position, or a binary search over the pages
	let page: number;
	if (options.at !== undefined && options.at >= 0 && options.at < first.total) {
		page = Math.min(
			Math.max(pageOf(Math.max(options.at - 1, 0), first.total), 2),
			lastPage(first.total),
		);
	} else {
		let low = 2;
		let high = lastPage(first.total);
		while (low < high && requests < ceiling - 1 && !late()) {
			const middle = Math.floor((low + high) / 2);
			const probe = await read(middle);
			cache.set(middle, probe);
			if (reachesFloor(probe) || probe.items.length === 0) high = middle;
			else low = middle + 1;
		}
		page = low;
	}
	let found: ListPage | undefined;
	while ((requests < ceiling && !late()) || cache.has(page)) {
		const candidate = await readCached(page);
		cache.delete(page);
		const total = candidate.total ?? first.total;
		if (reachesFloor(candidate) || candidate.items.length === 0 || page >= lastPage(total)) {
			found = candidate;
			break;
		}
		page++; // the floor lies deeper (items were removed, or arrived since the first read)
	}
	if (!found) return done(false);
	take(found);

	// toward the newest page; each answer's own total tells which positions it holds
	let latest = found.total ?? first.total;
	let topPosition = latest - 1 - (found.page - 1) * n;
	if (found.page === 1) return done(true);
	const firstBottom = first.total - first.items.length;
	while (requests < ceiling && !late()) {
		const wanted = topPosition + 1;
		if (wanted >= firstBottom) {
			take(first);
			return done(true);
		}
		const next = await read(Math.max(1, pageOf(wanted, latest)));
		if (next.total === undefined) break;
		latest = next.total;
		const bottom = next.total - ((next.page - 1) * n + next.items.length);
		if (bottom > wanted) continue; // shifted by new items: the deeper page again
		take(next);
		topPosition = next.total - 1 - (next.page - 1) * n;
		if (next.page === 1) return done(true);
	}
	return done(false);
}

/**
 * Whether half of the time n8n gives this poll (n8n 2.x: `getPollBudgetMs`)
 * is spent: the walk then stops and the rest is left to the next poll. n8n
 * 1.x sets no budget: the request ceiling alone bounds the poll.
 */
function pastHalfBudget(ctx: IPollFunctions): () => boolean {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? Number(ctx.getPollBudgetMs()) : NaN;
	if (!(budget > 0)) return () => false;
	const clock = getClock();
	const deadline = clock.now() + budget / 2;
	return () => clock.now() >= deadline;
}

/** A list without positions, read newest first from the top (or from `resume`) down to the floor. */
async function sweep(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	options: WalkOptions,
	ceiling: number,
	late: () => boolean,
	resume: IDataObject | undefined,
	fromTop: boolean,
	first?: ListPage,
): Promise<Walked> {
	const items: IDataObject[] = [];
	const seen = new Set<string>();
	let requests = first ? 1 : 0;
	let answer = first?.answer;
	let query: IDataObject | undefined = resume
		? { ...qs, ...resume, per_page: PER_PAGE }
		: undefined;
	if (first) query = { ...qs, per_page: PER_PAGE, page: 1 };
	for (;;) {
		if (!answer) {
			requests++;
			answer = (await apiRequest.call(ctx, 'GET', path, { qs: query })) as IDataObject;
		}
		for (const item of asList(answer)) {
			const key = options.key(item);
			if (!seen.has(key)) {
				seen.add(key);
				items.push(item);
			}
		}
		const next = nextQuery(qs, query ?? {}, answer);
		if (asList(answer).some((item) => options.below(item)) || !next) {
			return {
				items: items.filter((item) => !options.below(item)),
				positions: new Map(),
				top: fromTop,
				requests,
			};
		}
		if (requests >= ceiling || late()) {
			// the next poll reads this last page again, then goes on: the poll that reaches the
			// floor always returns at least one page above it, so every round moves the mark
			const resumeAt: IDataObject = {};
			for (const [name, value] of Object.entries(query ?? {})) {
				if (qs[name] === undefined && name !== 'per_page') resumeAt[name] = value;
			}
			return { items: [], positions: new Map(), top: false, resume: resumeAt, requests };
		}
		query = next;
		answer = undefined;
	}
}

/** What a look-up by id found: the item, or that it is not listed (or neither, when unsure). */
export interface Found {
	item?: IDataObject;
	/** A page read in one answer holds items older and newer than the id, but not the id. */
	absent?: boolean;
	requests: number;
}

/**
 * Looks one item up in a newest-first list whose ids grow toward the top, by
 * a binary search over its pages (page numbers and a total; `ceiling`
 * requests at most): about log2(pages) + 1 requests. The id is `absent` only
 * when one answer brackets it, or two neighbouring pages do (the newer page
 * all above it, the deeper all below, and the list no longer when the newer
 * page was read than when the deeper one was: positions counted from the end
 * do not move, so the id cannot lie between them); anything else unsure
 * leaves both unset.
 */
export async function findById(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	id: number,
	ceiling = MAX_REQUESTS_PER_POLL,
): Promise<Found> {
	let requests = 0;
	let low = 1;
	let high = 1;
	const above = new Map<number, number>(); // page → total, pages whose ids are all above the id
	const below = new Map<number, number>(); // page → total, pages whose ids are all below it
	for (let page = 1; requests < ceiling && low <= high; ) {
		requests++;
		const read = await readPage(ctx, path, qs, page);
		const item = read.items.find((candidate) => Number(candidate.id) === id);
		if (item) return { item, requests };
		if (read.total === undefined) return { requests };
		const ids = read.items.map((candidate) => Number(candidate.id)).filter(Number.isFinite);
		const lastPage = Math.max(1, Math.ceil(read.total / read.perPage));
		high = page === 1 ? lastPage : Math.min(high, lastPage);
		if (!ids.length) high = page - 1;
		else if (id > Math.min(...ids) && id < Math.max(...ids)) return { absent: true, requests };
		else if (id > Math.max(...ids)) {
			if (page === 1) return { absent: true, requests };
			below.set(page, read.total);
			high = page - 1;
		} else {
			above.set(page, read.total);
			low = page + 1;
		}
		const newer = above.get(page - 1) ?? above.get(page);
		const deeper = below.get(page) ?? below.get(page + 1);
		if (newer !== undefined && deeper !== undefined && newer <= deeper) {
			return { absent: true, requests };
		}
		page = Math.floor((low + high + 1) / 2);
	}
	return { requests };
}
