import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { FINAL_CALL_STATUSES } from '../VoiceChatAssistant/descriptions';
import type { WalkMarks } from './pages';
import { readPage, walkUp } from './pages';
import type { RunningCalls } from './runningCalls';
import { WAITING, findRunning, watchRunning } from './runningCalls';

/**
 * Call Ended. The call list is newest first and a call's id only grows, but a
 * call is listed from the moment it starts: it is emitted once its status is
 * final. The state keeps a high-water mark (every call with an id up to it is
 * handled, except the calls still on their way, "pending") and the mark's
 * position counted from the end of the list. A poll reads from the lowest of
 * the two upward (see `walkUp`): usually one request; after an outage, the
 * backlog is worked off oldest first over as many polls as it needs, each
 * within the request ceiling, and the mark moves exactly to where the read
 * stopped.
 */

export interface CallWalk extends WalkMarks {
	/** Every call with an id up to this one is handled, except the pending ones. */
	maxId: number;
	/** Calls seen before they ended: id → when first seen (ms). */
	pending: Record<string, number>;
	/** Calls on their way at activation below the first page, watched until final (`runningCalls.ts`). */
	running?: RunningCalls;
}

/** A call still on its way after this long is given up (calls last 20 minutes at most). */
export const PENDING_TTL_MS = 3 * 60 * 60_000;

/** Most calls tracked while on their way; a poll that would track more stops before them. */
export const MAX_PENDING = 1000;

const PATH = '/api/user/calls';

const LOG = 'Voice Chat Assistant Polling Trigger:';

function idOf(call: IDataObject): number {
	return Number(call.id);
}

export function isFinal(call: IDataObject): boolean {
	return FINAL_CALL_STATUSES.includes(String(call.status));
}

function isWaiting(call: IDataObject): boolean {
	return WAITING.includes(String(call.status));
}

/** The first poll: remembers where the list stands, and the calls already on their way. */
export async function startCallWalk(
	ctx: IPollFunctions,
	qs: IDataObject,
	now: number,
): Promise<CallWalk> {
	const page = await readPage(ctx, PATH, qs, 1);
	const walk: CallWalk = { maxId: 0, pending: {} };
	page.items.forEach((call, index) => {
		const id = idOf(call);
		if (!Number.isFinite(id)) return;
		if (id > walk.maxId) {
			walk.maxId = id;
			if (page.total !== undefined) walk.at = page.total - 1 - index;
		}
		if (isWaiting(call)) walk.pending[String(id)] = now;
	});
	// calls on their way further down the list (more than one page of newer calls): found
	// through the list's status filter and watched until they end
	const ids = page.items.map(idOf).filter(Number.isFinite);
	const more = !!page.answer.next_page_url || !!page.answer.next_cursor;
	if (more && ids.length) {
		const running = await findRunning(ctx, qs, Math.min(...ids), now, MAX_PENDING);
		if (Object.keys(running).length) walk.running = running;
	}
	return walk;
}

function giveUp(ctx: IPollFunctions, walk: CallWalk, id: string, why: string) {
	delete walk.pending[id];
	ctx.logger.warn(`${LOG} call ${id} ${why}: given up, it is not emitted`);
}

/**
 * A later poll: the calls that ended since the last one, oldest first. `walk`
 * is the poll's own copy of the state: it is changed to where the poll got.
 */
export async function pollCalls(
	ctx: IPollFunctions,
	qs: IDataObject,
	walk: CallWalk,
	now: number,
	maxEnded = Infinity,
): Promise<IDataObject[]> {
	for (const [id, seen] of Object.entries(walk.pending)) {
		if (now - seen > PENDING_TTL_MS) giveUp(ctx, walk, id, 'is still not final after 3 hours');
	}
	const running = walk.running ?? {};
	const giveUpRunning = (id: string, why: string) => {
		delete running[id];
		ctx.logger.warn(`${LOG} call ${id} ${why}: given up, it is not emitted`);
	};
	for (const [id, { seen }] of Object.entries(running)) {
		if (now - seen > PENDING_TTL_MS) giveUpRunning(id, 'is still not final after 3 hours');
	}
	// the calls on their way at activation, below everything the walk reads: oldest of all
	const endedBefore = await watchRunning(ctx, qs, running, maxEnded, isFinal, giveUpRunning);
	if (Object.keys(running).length) walk.running = running;
	else delete walk.running;
	const floor = Math.min(walk.maxId, ...Object.keys(walk.pending).map(Number));
	const walked = await walkUp(ctx, PATH, qs, {
		below: (call) => idOf(call) < floor,
		key: (call) => String(idOf(call)),
		at: walk.at,
		resume: walk.resume,
	});
	if (walked.resume) walk.resume = walked.resume;
	else delete walk.resume;

	const ascending = walked.items
		.filter((call) => Number.isFinite(idOf(call)))
		.sort((a, b) => idOf(a) - idOf(b));
	const ended: IDataObject[] = [...endedBefore];
	let mark = walk.maxId;
	for (const call of ascending) {
		const id = idOf(call);
		const key = String(id);
		if (id <= walk.maxId) {
			if (walk.pending[key] === undefined) continue;
			if (isFinal(call)) {
				if (ended.length >= maxEnded) break;
				delete walk.pending[key];
				ended.push(call);
			} else if (!isWaiting(call)) {
				giveUp(
					ctx,
					walk,
					key,
					`has the status "${String(call.status)}", which is not a call status`,
				);
			}
			continue;
		}
		if (isFinal(call)) {
			if (ended.length >= maxEnded) break;
			ended.push(call);
		} else if (isWaiting(call)) {
			if (Object.keys(walk.pending).length >= MAX_PENDING) break;
			walk.pending[key] = now;
		} else {
			ctx.logger.warn(
				`${LOG} call ${key} has the status "${String(call.status)}", which is not a call status: given up, it is not emitted`,
			);
		}
		mark = id;
	}
	// pending calls inside the stretch that is no longer listed were deleted
	if (ascending.length) {
		const listed = new Set(ascending.map((call) => String(idOf(call))));
		const top = idOf(ascending[ascending.length - 1]);
		for (const id of Object.keys(walk.pending)) {
			if (Number(id) >= floor && Number(id) <= top && !listed.has(id) && Number(id) <= walk.maxId) {
				giveUp(ctx, walk, id, 'is no longer listed');
			}
		}
	}
	walk.maxId = mark;
	const newFloor = Math.min(walk.maxId, ...Object.keys(walk.pending).map(Number));
	// the new floor's position, when this poll saw it; else the next poll searches for its page
	const at = walked.positions.get(String(newFloor));
	if (at !== undefined) walk.at = at;
	else delete walk.at;
	return ended;
}
