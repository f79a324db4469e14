import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LEAD_STATUSES } from '../../VoiceChatAssistant/actions/lead/shared';
import type { ListPage } from '../pages';
import { MAX_REQUESTS_PER_POLL, PER_PAGE, readPage } from '../pages';
import type { EventRun, PollEvent } from './event';
import { emit, locatorText, positiveId } from './event';

/**
 * Lead Status Changed. The lead list offers no "changed since" filter and no
 * ordering by update time (its filters are status, campaign, phone number and
 * the creation date), so the trigger keeps a snapshot of lead id → status and
 * compares the list with it. The list (newest lead first) is read in rounds:
 * each poll reads at most MAX_REQUESTS_PER_POLL pages of 100 leads from where
 * the last poll stopped, and the next round starts at the top again. A lead
 * whose status differs from the snapshot is emitted once with its previous
 * status; the snapshot then holds the new one.
 *
 * Cost: one request per 100 leads of the campaign (or of the account), at most
 * MAX_REQUESTS_PER_POLL per poll. A campaign of 10,000 leads is 100 pages: a
 * round takes 10 polls, so a change shows within 10 polls (each lead's page is
 * read once a round); the rest of the list waits for the following polls.
 * The campaign filter keeps the list to the campaign's leads; the status
 * filter is not used, as the previous status of a lead is only known when
 * the snapshot holds every status.
 *
 * The first round records the statuses and emits nothing: in a list longer
 * than one poll's ceiling, a lead whose page was not read yet when its status
 * changed is recorded with the new status. Later rounds emit every change
 * they see; a lead that changes twice between two reads of its page is
 * emitted once, with the status it had at the first read.
 */

export const LEAD_STATUS_CHANGED = 'leadStatusChanged';

/** Most leads the snapshot holds: leads past it are not watched (logged once each). */
export const MAX_TRACKED_LEADS = 20_000;

/** Statuses after which a campaign calls the lead no more: the default of the filter. */
export const FINAL_LEAD_STATUSES = ['completed', 'reached-max-retries', 'blacklisted'];

const PATH = '/api/user/leads';

const LOG = 'Voice Chat Assistant Polling Trigger:';

export interface LeadSnapshot {
	/** Each tracked lead's status as last read: id → status. */
	statuses: Record<string, string>;
	/**
	 * Every lead with an id up to this one was listed at activation or has been
	 * seen since: a lead above it is new (it is emitted with `previous_status`
	 * null when its status is watched), one below it and unknown is recorded
	 * without an item (it was there before activation).
	 */
	maxId: number;
	/** Where the round goes on: the position from the end of the list of the next lead to read. */
	at?: number;
	/** The list's length when `at` was noted (positions are counted with it). */
	total?: number;
	/** Lists that tell no total: the next page of the round. */
	page?: number;
	/** Whether the snapshot overflow of the leads from before activation was logged. */
	full?: boolean;
	/** The first round: every lead read is recorded, none emitted as new. */
	learning?: boolean;
}

export const LEAD_STATUS_OPTIONS = LEAD_STATUSES.map((status) => ({
	name: status.charAt(0).toUpperCase() + status.slice(1).replace(/-/g, ' '),
	value: status,
}));

/** The Campaign field (optional): its ID, or undefined for all campaigns. */
export function readCampaignId(ctx: IPollFunctions): number | undefined {
	const campaign = locatorText(ctx.getNodeParameter('campaignId', ''));
	return campaign ? positiveId(ctx, 'Campaign', campaign) : undefined;
}

function readStatuses(ctx: IPollFunctions): string[] {
	const statuses = ctx.getNodeParameter('leadStatuses', FINAL_LEAD_STATUSES) as unknown;
	if (!Array.isArray(statuses)) {
		throw new NodeOperationError(ctx.getNode(), 'Statuses must be a list of lead statuses');
	}
	for (const status of statuses) {
		if (!(LEAD_STATUSES as readonly string[]).includes(String(status))) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Statuses must be among ${LEAD_STATUSES.join(', ')}, got "${String(status)}"`,
			);
		}
	}
	return (statuses as string[]).slice().sort();
}

/** Reads pages of the lead list from the snapshot's mark and compares them with it. */
async function scan(
	ctx: IPollFunctions,
	qs: IDataObject,
	snapshot: LeadSnapshot,
	watched: (status: string) => boolean,
): Promise<IDataObject[]> {
	const changed: IDataObject[] = [];
	const overflow: { old: number[]; fresh: number[] } = { old: [], fresh: [] };
	let size = Object.keys(snapshot.statuses).length;
	// fixed for the poll: the list is newest first, so the newest leads come before older new ones
	const newAbove = snapshot.maxId;
	const learning = snapshot.learning === true;
	let highest = snapshot.maxId;
	for (let requests = 0; requests < MAX_REQUESTS_PER_POLL; ) {
		const number = pageToRead(snapshot);
		const listed = await readPage(ctx, PATH, qs, number);
		requests++;
		const ids = listed.items.map((lead) => Number(lead.id)).filter(Number.isFinite);
		forgetDeleted(snapshot, ids);
		for (const lead of listed.items) {
			const id = Number(lead.id);
			if (!Number.isFinite(id)) continue;
			const key = String(id);
			const status = String(lead.status);
			const before = snapshot.statuses[key];
			if (before !== undefined) {
				if (before !== status) {
					snapshot.statuses[key] = status;
					if (watched(status)) changed.push({ ...lead, previous_status: before, status });
				}
				continue;
			}
			highest = Math.max(highest, id);
			if (size >= MAX_TRACKED_LEADS) {
				(!learning && id > newAbove ? overflow.fresh : overflow.old).push(id);
				continue;
			}
			snapshot.statuses[key] = status;
			size++;
			if (!learning && id > newAbove && watched(status)) {
				changed.push({ ...lead, previous_status: null, status });
			}
		}
		if (!moveMark(snapshot, listed)) {
			// the round is complete: the next poll starts at the top
			delete snapshot.learning;
			break;
		}
	}
	snapshot.maxId = highest;
	reportOverflow(ctx, snapshot, overflow, size);
	return changed;
}

function pageToRead(snapshot: LeadSnapshot): number {
	if (snapshot.page !== undefined) return snapshot.page;
	if (snapshot.at === undefined || snapshot.total === undefined) return 1;
	// new leads at the top since then move the page down: the page read may repeat some leads, it skips none
	return Math.max(1, Math.floor((snapshot.total - 1 - snapshot.at) / PER_PAGE) + 1);
}

/** Notes where the round goes on after `listed`; false when the round is complete. */
function moveMark(snapshot: LeadSnapshot, listed: ListPage): boolean {
	delete snapshot.at;
	delete snapshot.total;
	delete snapshot.page;
	const more = !!listed.answer.next_page_url && listed.items.length > 0;
	if (!more) return false;
	if (listed.total === undefined) {
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
 * between the lowest and the highest id of the page but is not on it was
 * deleted (or moved to another campaign).
 */
function forgetDeleted(snapshot: LeadSnapshot, ids: number[]) {
	// only a page in the documented order (newest first) is one unbroken stretch of ids
	if (ids.length < 2 || ids.some((id, index) => index > 0 && id >= ids[index - 1])) return;
	const low = Math.min(...ids);
	const high = Math.max(...ids);
	const listed = new Set(ids);
	for (const key of Object.keys(snapshot.statuses)) {
		const id = Number(key);
		if (id > low && id < high && !listed.has(id)) delete snapshot.statuses[key];
	}
}

function reportOverflow(
	ctx: IPollFunctions,
	snapshot: LeadSnapshot,
	overflow: { old: number[]; fresh: number[] },
	size: number,
) {
	const list = (ids: number[]) =>
		ids.length > 50 ? `${ids.slice(0, 50).join(', ')} and ${ids.length - 50} more` : ids.join(', ');
	if (overflow.fresh.length) {
		ctx.logger.warn(
			`${LOG} the snapshot of lead statuses is full (${MAX_TRACKED_LEADS} leads): new leads ${list(overflow.fresh)} are not watched, their status changes are not emitted`,
		);
	}
	if (overflow.old.length && !snapshot.full) {
		ctx.logger.warn(
			`${LOG} the snapshot of lead statuses is full (${MAX_TRACKED_LEADS} leads): leads ${list(overflow.old)} (and any other lead past the limit) are not watched, their status changes are not emitted`,
		);
	}
	if (overflow.old.length) snapshot.full = true;
	else if (size < MAX_TRACKED_LEADS) delete snapshot.full;
}

/** Lead Status Changed: a lead of the campaign (or of any campaign) moved to a watched status. */
export const leadStatusChanged: PollEvent = {
	read(ctx: IPollFunctions): EventRun {
		const campaignId = readCampaignId(ctx);
		const statuses = readStatuses(ctx);
		const watched = (status: string) => statuses.length === 0 || statuses.includes(status);
		const qs: IDataObject = {};
		if (campaignId !== undefined) qs.campaign_id = campaignId;
		return {
			// the statuses only pick what is emitted: the snapshot holds every status
			key: { ...qs, statuses },
			nothingYet: 'No lead has a watched status yet: run the campaign, then fetch again',
			async test() {
				const newest = (await readPage(ctx, PATH, qs, 1)).items.find((lead) =>
					watched(String(lead.status)),
				);
				return newest
					? [ctx.helpers.returnJsonArray([{ ...newest, previous_status: null }])]
					: undefined;
			},
			started: (state) => !!state.leads,
			async start(state) {
				const snapshot: LeadSnapshot = { statuses: {}, maxId: 0, learning: true };
				await scan(ctx, qs, snapshot, watched);
				state.leads = snapshot;
			},
			async poll(state) {
				const snapshot = state.leads as LeadSnapshot;
				return emit(ctx, await scan(ctx, qs, snapshot, watched));
			},
		};
	},
};
