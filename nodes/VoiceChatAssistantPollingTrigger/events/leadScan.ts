import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { ListPage } from '../pages';
import { MAX_REQUESTS_PER_POLL, PER_PAGE, readPage } from '../pages';
import type { PackedStatuses } from './leadStatuses';
import { packStatuses, unpackStatuses } from './leadStatuses';
import { isStale, processId } from './process';

/**
 * One poll of Lead Status Changed: reads the next pages of the lead list
 * (the round goes on where the last poll stopped) and compares each lead with
 * the snapshot of statuses. See leadStatusChanged.ts for what is emitted.
 */

/** Most leads the snapshot holds: leads past it are not watched (an item says so). */
export const MAX_TRACKED_LEADS = 200_000;

/** The limit in force (tests lower it to reach it quickly). */
export const leadLimits = { tracked: MAX_TRACKED_LEADS };

/** While the first round reads, the leads in a call are read first, on up to this many pages. */
export const PROCESSING_PAGES = 3;

const PATH = '/api/user/leads';

/** Lists without a total: how many pages the check after a restart lasts. */
const MAX_RECHECK_PAGES = MAX_TRACKED_LEADS / PER_PAGE;

export interface LeadSnapshot {
	/** Each tracked lead's status as last read (packed; a plain id → status map in older states). */
	statuses: PackedStatuses | Record<string, string>;
	/**
	 * Every lead with an id up to this one was listed at activation or has been
	 * seen since: a lead above it is new (emitted with `previous_status` null
	 * when its status is watched); one below it and unknown is recorded without
	 * an item (it was there before activation).
	 */
	maxId: number;
	/** Where the round goes on: the position from the end of the list of the next lead to read. */
	at?: number;
	/** The list's length when `at` was noted (positions are counted with it). */
	total?: number;
	/** Lists in ascending order, or without a total: the next page of the round. */
	page?: number;
	/** Whether the leads past the snapshot's limit were reported. */
	full?: boolean;
	/** The first round: leads met for the first time are recorded, not emitted. */
	learning?: boolean;
	/** The newest `updated_at` of any lead read (the service's clock, its own format). */
	mark?: string;
	/** The n8n process that last wrote the snapshot (see process.ts). */
	process?: string;
	/**
	 * After a restart that lost unsaved polls: for one round's worth of pages
	 * (`pages` left, counted from the list's length at the first page read),
	 * that is the first read of each lead, a lead in a watched status that
	 * changed after `mark` (the newest change the saved snapshot knew of) is
	 * emitted again (`after_restart: true`); `done` holds those emitted.
	 */
	recheck?: { mark: string; pages?: number; done: number[] };
}

export interface ScanResult {
	changed: IDataObject[];
	/** How many leads the snapshot holds. */
	tracked: number;
	/** Leads the snapshot cannot hold (past MAX_TRACKED_LEADS), to report. */
	unwatched: { old: number[]; fresh: number[] };
}

/**
 * The statuses this process packed last, unpacked: the next poll of the same
 * trigger starts from them instead of unpacking 100,000 leads again. Taken out
 * while a poll works on them (a poll that fails leaves nothing behind).
 */
let lastPacked: { packed: PackedStatuses; statuses: Map<number, string> } | undefined;

function samePacked(a: PackedStatuses, b: PackedStatuses): boolean {
	return (
		a.ids === b.ids &&
		a.codes === b.codes &&
		JSON.stringify(a.other ?? {}) === JSON.stringify(b.other ?? {})
	);
}

function unpack(snapshot: LeadSnapshot): Map<number, string> {
	const saved = snapshot.statuses as PackedStatuses;
	const cached = lastPacked;
	lastPacked = undefined;
	if (typeof saved.ids === 'string' && typeof saved.codes === 'string') {
		return cached && samePacked(cached.packed, saved) ? cached.statuses : unpackStatuses(saved);
	}
	// a snapshot saved by an earlier version: id → status
	return new Map(
		Object.entries(snapshot.statuses as Record<string, string>).map(([id, status]) => [
			Number(id),
			String(status),
		]),
	);
}

/** Reads pages of the lead list from the snapshot's mark and compares them with it. */
export async function scan(
	ctx: IPollFunctions,
	qs: IDataObject,
	snapshot: LeadSnapshot,
	watched: (status: string) => boolean,
): Promise<ScanResult> {
	const statuses = unpack(snapshot);
	const changed: IDataObject[] = [];
	const unwatched: ScanResult['unwatched'] = { old: [], fresh: [] };
	if (isStale(snapshot.process) && snapshot.mark && !snapshot.learning) {
		snapshot.recheck = { mark: snapshot.mark, done: [] };
	}
	snapshot.process = processId();
	// fixed for the poll: the newest leads come before older new ones in a newest-first list
	const newAbove = snapshot.maxId;
	const learning = snapshot.learning === true;
	let highest = snapshot.maxId;
	let requests = 0;

	const see = (lead: IDataObject, fromRound: boolean) => {
		const id = Number(lead.id);
		if (!Number.isFinite(id)) return;
		const status = String(lead.status);
		const updated = typeof lead.updated_at === 'string' ? lead.updated_at : '';
		if (updated > (snapshot.mark ?? '')) snapshot.mark = updated;
		const before = statuses.get(id);
		if (before !== undefined) {
			if (before !== status) {
				statuses.set(id, status);
				if (watched(status)) changed.push({ ...lead, previous_status: before, status });
			} else if (fromRound) recheck(snapshot, lead, id, status, updated, watched, changed);
			return;
		}
		highest = Math.max(highest, id);
		const fresh = !learning && id > newAbove;
		if (statuses.size >= leadLimits.tracked) {
			(fresh ? unwatched.fresh : unwatched.old).push(id);
			return;
		}
		statuses.set(id, status);
		if (fresh && watched(status)) changed.push({ ...lead, previous_status: null, status });
	};

	if (learning) {
		// the leads in a call now will move on: known before their page is read, their next
		// status is a change the first round emits
		for (let page = 1; page <= PROCESSING_PAGES; page++) {
			const listed = await readPage(ctx, PATH, { ...qs, status: 'processing' }, page);
			requests++;
			for (const lead of listed.items) see(lead, false);
			if (!listed.answer.next_page_url || !listed.items.length) break;
		}
	}
	while (requests < MAX_REQUESTS_PER_POLL) {
		const listed = await readPage(ctx, PATH, qs, pageToRead(snapshot));
		requests++;
		forgetDeleted(statuses, listed.items);
		for (const lead of listed.items) see(lead, true);
		const pending = snapshot.recheck;
		if (pending) {
			pending.pages ??= Math.ceil((listed.total ?? 0) / listed.perPage) || MAX_RECHECK_PAGES;
			if (--pending.pages <= 0) delete snapshot.recheck;
		}
		if (!moveMark(snapshot, listed)) {
			// the round is complete: the next poll starts at the top
			delete snapshot.learning;
			break;
		}
	}
	snapshot.maxId = highest;
	snapshot.statuses = packStatuses(statuses);
	lastPacked = { packed: snapshot.statuses, statuses };
	return { changed, unwatched, tracked: statuses.size };
}

/**
 * A lead in a watched status, the same as the snapshot's, changed after the
 * newest change the saved snapshot knew of: after a restart that lost the
 * polls since the last save, it may have left that status and come back
 * (reset to `created`, called again). Emitted once, marked.
 */
function recheck(
	snapshot: LeadSnapshot,
	lead: IDataObject,
	id: number,
	status: string,
	updated: string,
	watched: (status: string) => boolean,
	changed: IDataObject[],
) {
	const pending = snapshot.recheck;
	if (!pending || !watched(status) || !(updated > pending.mark) || pending.done.includes(id))
		return;
	pending.done.push(id);
	changed.push({ ...lead, previous_status: null, status, after_restart: true });
}

function pageToRead(snapshot: LeadSnapshot): number {
	if (snapshot.page !== undefined) return snapshot.page;
	if (snapshot.at === undefined || snapshot.total === undefined) return 1;
	// new leads at the top since then move the page down: the page read may repeat some leads, it skips none
	return Math.max(1, Math.floor((snapshot.total - 1 - snapshot.at) / PER_PAGE) + 1);
}

function ids(items: IDataObject[]): number[] {
	return items.map((lead) => Number(lead.id)).filter(Number.isFinite);
}

/** Notes where the round goes on after `listed`; false when the round is complete. */
function moveMark(snapshot: LeadSnapshot, listed: ListPage): boolean {
	delete snapshot.at;
	delete snapshot.total;
	delete snapshot.page;
	const more = !!listed.answer.next_page_url && listed.items.length > 0;
	if (!more) return false;
	const listedIds = ids(listed.items);
	const ascending = listedIds.length > 1 && listedIds[0] < listedIds[listedIds.length - 1];
	// oldest first, new leads come at the end: page numbers do not move
	if (listed.total === undefined || ascending) {
		snapshot.page = listed.page + 1;
		return true;
	}
	const lowest = listed.total - (listed.page - 1) * listed.perPage - listed.items.length;
	if (lowest <= 0) return false;
	snapshot.at = lowest - 1;
	snapshot.total = listed.total;
	return true;
}

/**
 * One answer is one consistent view of the list: a tracked lead whose id lies
 * between the lowest and the highest id of a page in id order (either way) but
 * is not on it was deleted (or moved to another campaign).
 */
function forgetDeleted(statuses: Map<number, string>, items: IDataObject[]) {
	const listed = ids(items);
	if (listed.length < 2) return;
	const down = listed.every((id, index) => index === 0 || id < listed[index - 1]);
	const up = listed.every((id, index) => index === 0 || id > listed[index - 1]);
	if (!down && !up) return;
	const low = Math.min(...listed);
	const high = Math.max(...listed);
	const seen = new Set(listed);
	if (high - low <= 10 * listed.length) {
		// the usual page of a campaign: ids close together, looked up one by one
		for (let id = low + 1; id < high; id++) if (!seen.has(id)) statuses.delete(id);
		return;
	}
	for (const id of statuses.keys()) {
		if (id > low && id < high && !seen.has(id)) statuses.delete(id);
	}
}
