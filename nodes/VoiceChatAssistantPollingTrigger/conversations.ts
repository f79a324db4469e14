import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { transcriptText } from '../VoiceChatAssistant/shared/transcript';

import { apiRequest } from '../VoiceChatAssistant/transport';
import { serviceTime } from '../VoiceChatAssistant/transport/serviceTime';
import type { WalkMarks, Walked } from './pages';
import { MAX_SIDE_READS_PER_POLL, readPage, walkUp } from './pages';

/**
 * New Conversation and Conversation Ended. The conversation list is newest
 * first by `created_at`; ids are UUIDs. The state keeps a mark: the newest
 * `created_at` handled and the ids handled at that moment (several chats can
 * start in the same second, and a page can end in the middle of them). A chat
 * ends after a time without messages (the assistant's conversation
 * inactivity timeout, 30 minutes by default): the list has no "ended" field,
 * so the trigger watches each new chat and emits it once its message count
 * and `updated_at` have not changed for that long, as seen by the trigger's
 * own clock (so the service's time zone does not matter). A poll reads from
 * the oldest chat still watched (or the mark) upward, within the request
 * ceiling (see `walkUp`): one request per poll when little happened; after an
 * outage the backlog is worked off over several polls, oldest first.
 */

export interface ConversationWalk extends WalkMarks {
	/** Newest `created_at` handled. */
	newest: string;
	/** Ids created at `newest` that are handled. */
	atNewest: string[];
	/** Chats waiting to end: id → what was seen of them. */
	watch: Record<string, Watched>;
}

interface Watched {
	created_at: string;
	message_count: unknown;
	updated_at: unknown;
	/** When the trigger last saw the chat change (ms). */
	changed: number;
	/** When the trigger first saw the chat (ms). */
	first: number;
}

/** A chat is watched at most this long, then given up (logged, not emitted). */
export const WATCH_TTL_MS = 24 * 60 * 60_000;

/** Most chats watched at once; a poll that would watch more stops before them. */
export const MAX_WATCHED = 1000;

const PATH = '/api/user/conversations';

const LOG = 'Voice Chat Assistant Polling Trigger:';

function created(item: IDataObject): string {
	return String(item.created_at ?? '');
}

function idOf(item: IDataObject): string {
	return String(item.id ?? item.uuid ?? '');
}

export async function startConversationWalk(
	ctx: IPollFunctions,
	qs: IDataObject,
): Promise<ConversationWalk> {
	const page = await readPage(ctx, PATH, qs, 1);
	const newest = page.items.reduce((max, item) => (created(item) > max ? created(item) : max), '');
	const walk: ConversationWalk = {
		newest,
		atNewest: page.items.filter((item) => created(item) === newest).map(idOf),
		watch: {},
	};
	if (page.total !== undefined && page.items.length) {
		const lowest = page.items.reduce(
			(at, item, index) => (created(item) === newest ? index : at),
			0,
		);
		walk.at = page.total - 1 - lowest;
	}
	return walk;
}

/**
 * Reads the chats from the floor (the mark, or the oldest chat watched)
 * upward. `fresh` are the chats above the mark, oldest first.
 */
async function readSince(ctx: IPollFunctions, qs: IDataObject, walk: ConversationWalk) {
	const floor = Object.values(walk.watch).reduce(
		(min, watched) => (watched.created_at < min ? watched.created_at : min),
		walk.newest,
	);
	const walked = await walkUp(ctx, PATH, qs, {
		// a chat of the floor's own second is read again: ties are told apart by id
		below: (item) => created(item) < floor,
		key: idOf,
		at: walk.at,
		resume: walk.resume,
	});
	if (walked.resume) walk.resume = walked.resume;
	else delete walk.resume;
	const handled = new Set(walk.atNewest);
	const fresh = [...walked.items]
		.reverse()
		.sort((a, b) => created(a).localeCompare(created(b)))
		.filter(
			(item) =>
				created(item) > walk.newest || (created(item) === walk.newest && !handled.has(idOf(item))),
		);
	return { walked, fresh, floor };
}

/** Moves the mark over `taken` (oldest first: the chats the poll handled), and keeps the floor's position. */
function advance(walk: ConversationWalk, taken: IDataObject[], walked: Walked) {
	for (const item of taken) {
		if (created(item) > walk.newest) {
			walk.newest = created(item);
			walk.atNewest = [];
		}
		if (created(item) === walk.newest) walk.atNewest.push(idOf(item));
	}
	walk.atNewest = [...new Set(walk.atNewest)];
	const floor = Object.values(walk.watch).reduce(
		(min, watched) => (watched.created_at < min ? watched.created_at : min),
		walk.newest,
	);
	let at: number | undefined;
	for (const item of walked.items) {
		const position = walked.positions.get(idOf(item));
		if (created(item) === floor && position !== undefined && (at === undefined || position < at)) {
			at = position;
		}
	}
	// the floor's position, when this poll saw it; else the next poll searches for its page
	if (at !== undefined) walk.at = at;
	else delete walk.at;
}

/** New Conversation: the chats started since the last poll, oldest first. */
export async function pollNewConversations(
	ctx: IPollFunctions,
	qs: IDataObject,
	walk: ConversationWalk,
): Promise<IDataObject[]> {
	const { walked, fresh } = await readSince(ctx, qs, walk);
	advance(walk, fresh, walked);
	return fresh;
}

/** Conversation Ended: the chats silent for `inactivityMs`, with their messages. */
export async function pollEndedConversations(
	ctx: IPollFunctions,
	qs: IDataObject,
	walk: ConversationWalk,
	now: number,
	inactivityMs: number,
): Promise<IDataObject[]> {
	const { walked, fresh } = await readSince(ctx, qs, walk);
	const byId = new Map(walked.items.map((item) => [idOf(item), item]));
	const top = walked.items.reduce((max, item) => (created(item) > max ? created(item) : max), '');
	// chats read for the first time; a chat whose last message is older than the inactivity time
	// by the service's own clock (a later chat in the list proves that much time has passed
	// there) has ended already: it is due at once
	const serviceNow = walked.items.reduce((max, item) => {
		const latest = [created(item), String(item.updated_at ?? '')].sort().pop() ?? '';
		return latest > max ? latest : max;
	}, '');
	const taken: IDataObject[] = [];
	for (const item of fresh) {
		if (Object.keys(walk.watch).length >= MAX_WATCHED) break;
		const silent = between(String(item.updated_at ?? created(item)), serviceNow);
		walk.watch[idOf(item)] = {
			created_at: created(item),
			message_count: item.message_count,
			updated_at: item.updated_at,
			changed: silent >= inactivityMs ? now - inactivityMs : now,
			first: now,
		};
		taken.push(item);
	}
	const ended: IDataObject[] = [];
	const watchedBefore = { ...walk.watch };
	for (const [id, watched] of Object.entries(walk.watch)) {
		const item = byId.get(id);
		if (now - watched.first > WATCH_TTL_MS) {
			delete walk.watch[id];
			ctx.logger.warn(`${LOG} chat ${id} did not end within 24 hours: given up, it is not emitted`);
			continue;
		}
		if (!item) {
			// outside the stretch read this time, or deleted
			if (walked.items.length && watched.created_at <= top && watched.created_at > '') {
				delete walk.watch[id];
				ctx.logger.warn(`${LOG} chat ${id} is no longer listed: given up, it is not emitted`);
			}
			continue;
		}
		if (item.message_count !== watched.message_count || item.updated_at !== watched.updated_at) {
			Object.assign(watched, {
				message_count: item.message_count,
				updated_at: item.updated_at,
				changed: now,
			});
			continue;
		}
		if (now - watched.changed >= inactivityMs) {
			delete walk.watch[id];
			ended.push(item);
		}
	}
	// one history read per chat: the oldest ones first, the rest stay watched (still silent, they
	// are emitted by the next poll)
	const oldestFirst = ended.sort((a, b) => created(a).localeCompare(created(b)));
	for (const item of oldestFirst.slice(MAX_SIDE_READS_PER_POLL)) {
		walk.watch[idOf(item)] = watchedBefore[idOf(item)];
	}
	advance(walk, taken, walked);
	const withHistory: IDataObject[] = [];
	for (const item of oldestFirst.slice(0, MAX_SIDE_READS_PER_POLL)) {
		withHistory.push(await withMessages(ctx, item));
	}
	return withHistory;
}

/** Milliseconds from one time of the service to a later one (both in the service's own zone). */
function between(earlier: string, later: string): number {
	// zone-less times read in any one zone: their difference is the same in each
	const difference = (serviceTime(later, 0) ?? NaN) - (serviceTime(earlier, 0) ?? NaN);
	return Number.isFinite(difference) ? difference : -Infinity;
}

/**
 * The chat with its messages and a transcript in one string. When the
 * messages cannot be read, the chat comes without them and `history_error`
 * says why (the event is not held back).
 */
export async function withMessages(ctx: IPollFunctions, item: IDataObject): Promise<IDataObject> {
	let answer: IDataObject;
	try {
		answer = (await apiRequest.call(
			ctx,
			'GET',
			`/api/conversations/${encodeURIComponent(idOf(item))}`,
		)) as IDataObject;
	} catch (error) {
		return { ...item, history_error: (error as Error).message };
	}
	const history = Array.isArray(answer.history) ? (answer.history as IDataObject[]) : [];
	return {
		...item,
		history,
		transcript: transcriptText(history),
	};
}
