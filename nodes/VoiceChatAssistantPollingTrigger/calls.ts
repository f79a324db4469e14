import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { FINAL_CALL_STATUSES } from '../VoiceChatAssistant/descriptions';
import { readNewest } from './pages';

/**
 * Call Ended. The call list is newest first and a call's id only grows, but a
 * call is listed from the moment it starts: it is emitted once its status is
 * final. The state keeps the highest id seen and the calls still on their way
 * ("pending"); a poll reads pages until it reaches a call at or below both, so
 * it costs one request per 100 calls started since the oldest pending call
 * (usually one request), whatever the account's history.
 */

export interface CallWalk {
	/** Highest call id seen. */
	maxId: number;
	/** Calls seen before they ended: id → when first seen (ms). */
	pending: Record<string, number>;
}

/** A call still on its way after this long is given up (calls last 20 minutes at most). */
export const PENDING_TTL_MS = 3 * 60 * 60_000;

function idOf(call: IDataObject): number {
	return Number(call.id);
}

export function isFinal(call: IDataObject): boolean {
	return FINAL_CALL_STATUSES.includes(String(call.status));
}

/** The first poll: remembers where the list stands, and the calls already on their way. */
export async function startCallWalk(
	ctx: IPollFunctions,
	qs: IDataObject,
	now: number,
): Promise<CallWalk> {
	const page = await readNewest(ctx, '/api/user/calls', qs, () => true);
	const walk: CallWalk = { maxId: 0, pending: {} };
	for (const call of page) {
		walk.maxId = Math.max(walk.maxId, idOf(call) || 0);
		if (!isFinal(call)) walk.pending[String(idOf(call))] = now;
	}
	return walk;
}

/** A later poll: the calls that ended since the last one, oldest first. */
export async function pollCalls(
	ctx: IPollFunctions,
	qs: IDataObject,
	walk: CallWalk,
	now: number,
): Promise<IDataObject[]> {
	for (const [id, seen] of Object.entries(walk.pending)) {
		if (now - seen > PENDING_TTL_MS) delete walk.pending[id];
	}
	const floor = Math.min(walk.maxId, ...Object.keys(walk.pending).map(Number));
	const calls = await readNewest(ctx, '/api/user/calls', qs, (page) =>
		page.some((call) => idOf(call) <= floor),
	);
	const ended: IDataObject[] = [];
	const emitted = new Set<number>();
	let maxId = walk.maxId;
	for (const call of calls) {
		const id = idOf(call);
		if (!Number.isFinite(id) || emitted.has(id)) continue;
		const key = String(id);
		const isNew = id > walk.maxId;
		if (!isNew && walk.pending[key] === undefined) continue;
		maxId = Math.max(maxId, id);
		if (isFinal(call)) {
			delete walk.pending[key];
			emitted.add(id);
			ended.push(call);
		} else if (isNew) {
			walk.pending[key] = now;
		}
	}
	walk.maxId = maxId;
	return ended.sort((a, b) => idOf(a) - idOf(b));
}
