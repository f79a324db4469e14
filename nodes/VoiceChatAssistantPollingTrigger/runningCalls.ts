import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { CALL_STATUSES, FINAL_CALL_STATUSES } from '../VoiceChatAssistant/descriptions';
import type { Found } from './pages';
import { PER_PAGE, findById, readNewest, readPage } from './pages';

/**
 * Call Ended: the calls that were already on their way at activation but
 * stood below the first page of the call list (more than 100 newer calls).
 * The first poll finds them with the list's `status` filter (SPEC), one list
 * per status that is not final; later polls read the same lists (each down
 * to the oldest call watched, usually one page) and look up each watched
 * call that left them: by its client's number first (`phone_number`), else
 * by a binary search over the call list's pages. Once a watched call is
 * final it is emitted like every other ended call.
 *
 * Cost: at activation, when the call list has more than one page, 3 requests;
 * while such calls are watched, 3 requests a poll, plus 1 (by number) or
 * about log2(pages) + 1 requests for each watched call when it ends. With
 * none watched: nothing.
 */

/** A call watched since activation: when first seen (ms) and its client's number. */
export interface RunningCall {
	seen: number;
	phone?: string;
}

export type RunningCalls = Record<string, RunningCall>;

/** Statuses of a call on its way (the service's statuses that are not final). */
export const WAITING = CALL_STATUSES.filter((status) => !FINAL_CALL_STATUSES.includes(status));

/** Pages of each status list read per poll: up to 300 calls of a status are watched. */
export const RUNNING_PAGES = 3;

/** Most watched calls looked up per poll (the others wait for the next poll). */
export const MAX_LOOKUPS_PER_POLL = 10;

const PATH = '/api/user/calls';

const LOG = 'Voice Chat Assistant Polling Trigger:';

const idOf = (call: IDataObject) => Number(call.id);

/** The calls of the non-final status lists, newest first in each; down to `floor` when given. */
async function readWaiting(
	ctx: IPollFunctions,
	qs: IDataObject,
	floor?: number,
): Promise<{ calls: IDataObject[]; cut: boolean }> {
	const calls: IDataObject[] = [];
	let cut = false;
	for (const status of WAITING) {
		const read = await readNewest(
			ctx,
			PATH,
			{ ...qs, status },
			(page) => floor !== undefined && page.some((call) => idOf(call) < floor),
			RUNNING_PAGES,
		);
		if (read.length >= RUNNING_PAGES * PER_PAGE) cut = true;
		calls.push(...read);
	}
	return { calls, cut };
}

/**
 * The first poll, when the call list has more than one page: the calls on
 * their way with an id below `below` (the oldest call of the first page).
 */
export async function findRunning(
	ctx: IPollFunctions,
	qs: IDataObject,
	below: number,
	now: number,
	max: number,
): Promise<RunningCalls> {
	const { calls, cut } = await readWaiting(ctx, qs);
	const running: RunningCalls = {};
	const deep = calls
		.filter((call) => Number.isFinite(idOf(call)) && idOf(call) < below)
		.sort((a, b) => idOf(b) - idOf(a));
	for (const call of deep.slice(0, max)) {
		const phone = call.client_phone_number;
		running[String(idOf(call))] = {
			seen: now,
			...(typeof phone === 'string' && phone ? { phone } : {}),
		};
	}
	if (cut || deep.length > max) {
		ctx.logger.warn(
			`${LOG} more calls were on their way at activation than the trigger follows (${RUNNING_PAGES * PER_PAGE} a status, ${max} in all): only the newest are emitted when they end`,
		);
	}
	return running;
}

/**
 * A later poll: the watched calls that are final now (oldest first, at most
 * `maxEnded`), removed from `running`; the others stay watched.
 */
export async function watchRunning(
	ctx: IPollFunctions,
	qs: IDataObject,
	running: RunningCalls,
	maxEnded: number,
	isFinal: (call: IDataObject) => boolean,
	giveUp: (id: string, why: string) => void,
): Promise<IDataObject[]> {
	const watched = Object.keys(running)
		.map(Number)
		.sort((a, b) => a - b);
	if (!watched.length) return [];
	const { calls } = await readWaiting(ctx, qs, watched[0]);
	const still = new Set(calls.map((call) => String(idOf(call))));
	const ended: IDataObject[] = [];
	let lookups = 0;
	for (const id of watched) {
		const key = String(id);
		if (still.has(key)) continue;
		if (ended.length >= maxEnded || lookups >= MAX_LOOKUPS_PER_POLL) break;
		lookups++;
		const found = await lookUp(ctx, qs, id, running[key].phone);
		if (found.absent) giveUp(key, 'is no longer listed');
		else if (found.item && isFinal(found.item)) {
			delete running[key];
			ended.push(found.item);
		}
	}
	return ended;
}

/** One call of the list: by its client's number (one request), else by its id. */
async function lookUp(
	ctx: IPollFunctions,
	qs: IDataObject,
	id: number,
	phone?: string,
): Promise<Found> {
	if (phone) {
		const page = await readPage(ctx, PATH, { ...qs, phone_number: phone }, 1);
		const item = page.items.find((call) => idOf(call) === id);
		if (item) return { item, requests: 1 };
	}
	return await findById(ctx, PATH, qs, id);
}
