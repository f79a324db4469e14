import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest } from '../VoiceChatAssistant/transport';
import { readNewest } from './pages';

/**
 * New Conversation and Conversation Ended. The conversation list is newest
 * first by `created_at`; ids are UUIDs. The state keeps the newest
 * `created_at` seen and the ids created at that moment. A chat ends after a
 * time without messages (the assistant's conversation inactivity timeout,
 * 30 minutes by default): the list has no "ended" field, so the trigger
 * watches each new chat and emits it once its message count and `updated_at`
 * have not changed for that long, as seen by the trigger's own clock (so the
 * service's time zone does not matter). A poll reads pages back to the oldest
 * chat still watched: one request per 100 chats started since then.
 */

export interface ConversationWalk {
	/** Newest `created_at` seen. */
	newest: string;
	/** Ids created at `newest` (several chats can start in the same second). */
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

/** A chat is watched at most this long, then forgotten (it is not emitted). */
export const WATCH_TTL_MS = 24 * 60 * 60_000;

const PATH = '/api/user/conversations';

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
	const page = await readNewest(ctx, PATH, qs, () => true);
	const newest = page.reduce((max, item) => (created(item) > max ? created(item) : max), '');
	return {
		newest,
		atNewest: page.filter((item) => created(item) === newest).map(idOf),
		watch: {},
	};
}

/** Reads the chats started since the last poll (and back to the oldest one watched). */
async function readSince(ctx: IPollFunctions, qs: IDataObject, walk: ConversationWalk) {
	const floor = Object.values(walk.watch).reduce(
		(min, watched) => (watched.created_at < min ? watched.created_at : min),
		walk.newest,
	);
	const known = new Set([...walk.atNewest, ...Object.keys(walk.watch)]);
	const items = await readNewest(ctx, PATH, qs, (page) =>
		page.some(
			(item) => created(item) < floor || (created(item) === floor && known.has(idOf(item))),
		),
	);
	const fresh = items.filter(
		(item) =>
			created(item) > walk.newest ||
			(created(item) === walk.newest && !walk.atNewest.includes(idOf(item))),
	);
	for (const item of fresh) {
		if (created(item) > walk.newest) {
			walk.newest = created(item);
			walk.atNewest = [];
		}
	}
	walk.atNewest = [
		...new Set([
			...walk.atNewest,
			...items.filter((item) => created(item) === walk.newest).map(idOf),
		]),
	];
	return { items, fresh };
}

/** New Conversation: the chats started since the last poll, oldest first. */
export async function pollNewConversations(
	ctx: IPollFunctions,
	qs: IDataObject,
	walk: ConversationWalk,
): Promise<IDataObject[]> {
	const { fresh } = await readSince(ctx, qs, walk);
	return fresh.reverse();
}

/** Conversation Ended: the chats silent for `inactivityMs`, with their messages. */
export async function pollEndedConversations(
	ctx: IPollFunctions,
	qs: IDataObject,
	walk: ConversationWalk,
	now: number,
	inactivityMs: number,
): Promise<IDataObject[]> {
	const { items, fresh } = await readSince(ctx, qs, walk);
	for (const item of fresh) {
		walk.watch[idOf(item)] = {
			created_at: created(item),
			message_count: item.message_count,
			updated_at: item.updated_at,
			changed: now,
			first: now,
		};
	}
	const byId = new Map(items.map((item) => [idOf(item), item]));
	const ended: IDataObject[] = [];
	for (const [id, watched] of Object.entries(walk.watch)) {
		const item = byId.get(id);
		if (!item || now - watched.first > WATCH_TTL_MS) {
			// deleted, or watched for a day without ending: forgotten
			delete walk.watch[id];
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
	const withHistory: IDataObject[] = [];
	for (const item of ended.sort((a, b) => created(a).localeCompare(created(b)))) {
		withHistory.push(await withMessages(ctx, item));
	}
	return withHistory;
}

/** The chat with its messages and a transcript in one string. */
export async function withMessages(ctx: IPollFunctions, item: IDataObject): Promise<IDataObject> {
	const answer = (await apiRequest.call(
		ctx,
		'GET',
		`/api/conversations/${encodeURIComponent(idOf(item))}`,
	)) as IDataObject;
	const history = Array.isArray(answer.history) ? (answer.history as IDataObject[]) : [];
	return {
		...item,
		history,
		transcript: history
			.map((message) => `${message.role === 'user' ? 'Customer' : 'AI'}: ${message.content}`)
			.join('\n'),
	};
}
