/**
 * What the user pages promise about the polling trigger's footprint and
 * limits (docs/triggers/README.md, Polling trigger and its limits): it sends
 * only reads, whatever the event; Call Ended follows a bounded number of calls
 * on their way, of the calls running at activation per status, and looks up a
 * bounded number of them a poll; Conversation Ended watches a bounded number of
 * chats and gives up a chat that does not end within a day, naming it in the
 * log. Every request is recorded (any method, any path) and asserted.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { MAX_PENDING } from '../../../nodes/VoiceChatAssistantPollingTrigger/calls';
import {
	MAX_WATCHED,
	WATCH_TTL_MS,
} from '../../../nodes/VoiceChatAssistantPollingTrigger/conversations';
import {
	MAX_REQUESTS_PER_POLL,
	PER_PAGE,
} from '../../../nodes/VoiceChatAssistantPollingTrigger/pages';
import {
	MAX_LOOKUPS_PER_POLL,
	RUNNING_PAGES,
	WAITING,
} from '../../../nodes/VoiceChatAssistantPollingTrigger/runningCalls';
import { TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { poller as pollContext } from '../../helpers/pollContext';

const node = new VoiceChatAssistantPollingTrigger();

type Output = Array<Array<{ json: IDataObject }>> | null;
const items = (output: unknown) => ((output as Output)?.[0] ?? []).map((item) => item.json);
const ids = (output: unknown) => items(output).map((item) => item.id);
const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);

interface World {
	calls: IDataObject[]; // newest first
	chats: IDataObject[]; // newest first
	documents: IDataObject[];
	leads: IDataObject[];
	campaigns: IDataObject[];
	balance: number;
	/** Entries per page of the lists (the service's is 100, as asked). */
	pageSize: number;
}

function envelope(all: IDataObject[], query: Record<string, string>, size: number) {
	const page = Number(query.page ?? 1);
	return {
		data: all.slice((page - 1) * size, page * size),
		current_page: page,
		per_page: size,
		total: all.length,
		next_page_url: page * size < all.length ? `${TEST_BASE_URL}/next?page=${page + 1}` : null,
	};
}

/** What the service answers a read; undefined: 404. */
function read(world: World, path: string, query: Record<string, string>): unknown {
	const size = world.pageSize;
	const where = (list: IDataObject[]) =>
		list.filter(
			(row) =>
				(!query.status || row.status === query.status) &&
				(!query.phone_number || row.client_phone_number === query.phone_number),
		);
	if (path === '/api/user/calls') return envelope(where(world.calls), query, size);
	if (path === '/api/user/conversations') return envelope(world.chats, query, size);
	if (path.startsWith('/api/conversations/'))
		return { status: true, history: [{ role: 'user', content: 'Hi' }] };
	if (path === '/api/user/knowledgebases/4/documents') return { data: world.documents };
	if (path === '/api/user/leads') return envelope(where(world.leads), query, size);
	if (path === '/api/user/campaigns') return { data: world.campaigns };
	if (path === '/api/user/me') return { name: 'Sim Tester', total_balance: world.balance };
	return undefined;
}

/** The service behind nock: every request of every method recorded as a line; reads answered from `world`. */
function serve(world: Partial<World> = {}) {
	const state: World = {
		calls: [],
		chats: [],
		documents: [],
		leads: [],
		campaigns: [],
		balance: 50,
		pageSize: PER_PAGE,
		...world,
	};
	const sent: string[] = [];
	const scope = nock(TEST_BASE_URL).persist();
	for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
		scope
			.intercept(/.*/, method)
			.query(true)
			.reply((uri) => {
				const url = new URL(uri, TEST_BASE_URL);
				const query = Object.fromEntries(url.searchParams);
				const pairs = Object.keys(query)
					.sort()
					.map((key) => ` ${key}=${query[key]}`);
				sent.push(`${method} ${url.pathname}${pairs.join('')}`);
				if (method !== 'GET') return [200, { message: 'done' }];
				const body = read(state, url.pathname, query);
				return body === undefined ? [404, { message: 'Not found' }] : [200, body];
			});
	}
	return { world: state, sent };
}

const call = (id: number, status = 'completed') => ({
	id,
	status,
	client_phone_number: `+1415555${String(id).padStart(4, '0')}`,
});
/** Calls `from`..`to`, newest first. */
const calls = (from: number, to: number, status = 'completed') =>
	range(from, to)
		.reverse()
		.map((id) => call(id, status));
const CALLS = { event: 'callEnded', assistantId: '', callFilters: {} };
const CHATS = { event: 'conversationEnded', assistantId: '', conversationFilters: {} };
const list = (query = '') => `GET /api/user/calls page=1 per_page=100${query}`;
const byNumber = (id: number) => list(` phone_number=${call(id).client_phone_number}`);
const walk = (state: IDataObject) => (state.calls as { walk: IDataObject }).walk;

/** A time of the service ("YYYY-MM-DD HH:MM:SS"), `ms` from the fake clock's start. */
const at = (ms: number) =>
	new Date(1_700_000_000_000 + ms).toISOString().replace('T', ' ').slice(0, 19);
const chat = (id: string, created: string) => ({
	id,
	type: 'widget',
	created_at: created,
	updated_at: created,
	message_count: 1,
});

describe('Polling trigger: promised footprint and limits', () => {
	const clock = fakeClockPerTest();
	const poll = (parameters: IDataObject, state: IDataObject, warnings: string[] = []) =>
		node.poll.call(pollContext(parameters, state, { warnings }));

	type News = (world: World) => void;
	const EVENTS: Array<[string, IDataObject, Partial<World>, News, string[]]> = [
		['callEnded', CALLS, { calls: [call(1)] }, (w) => w.calls.unshift(call(3), call(2)), []],
		[
			'newConversation',
			{ ...CHATS, event: 'newConversation' },
			{ chats: [chat('a', at(-3_600_000))] },
			(w) => w.chats.unshift(chat('b', at(0))),
			[],
		],
		[
			'conversationEnded',
			CHATS,
			{ chats: [chat('a', at(-3_600_000))] },
			(w) => w.chats.unshift(chat('b', at(0))),
			['/api/conversations/b'],
		],
		[
			'documentProcessed',
			{ event: 'documentProcessed', knowledgebaseId: { __rl: true, mode: 'id', value: '4' } },
			{ documents: [{ id: 1, status: 'processing' }] },
			(w) => (w.documents[0].status = 'active'),
			[],
		],
		[
			'leadStatusChanged',
			{ event: 'leadStatusChanged', campaignId: { __rl: true, mode: 'id', value: '5' } },
			{ leads: [{ id: 1, campaign_id: 5, status: 'created' }] },
			(w) => (w.leads[0].status = 'completed'),
			[],
		],
		[
			'campaignStatusChanged',
			{ event: 'campaignStatusChanged', campaignId: '' },
			{ campaigns: [{ id: 2, name: 'Autumn Calls', status: 'draft' }] },
			(w) => (w.campaigns[0].status = 'in-progress'),
			[],
		],
		[
			'balanceBelow',
			{ event: 'balanceBelow', balanceThreshold: 10 },
			{},
			(w) => (w.balance = 5),
			[],
		],
	];
	const LIST_PATH: Record<string, string> = {
		callEnded: '/api/user/calls',
		newConversation: '/api/user/conversations',
		conversationEnded: '/api/user/conversations',
		documentProcessed: '/api/user/knowledgebases/4/documents',
		leadStatusChanged: '/api/user/leads',
		campaignStatusChanged: '/api/user/campaigns',
		balanceBelow: '/api/user/me',
	};

	it.each(EVENTS)(
		'%s: activation, polls that emit and Fetch Test Event send only reads of its list: nothing registered, no assistant touched',
		async (event, parameters, start, news, sideReads) => {
			const { world, sent } = serve(start);
			const state: IDataObject = {};
			expect(await poll(parameters, state)).toBeNull();
			news(world);
			const emitted: unknown[] = [];
			for (let i = 0; i < 3; i++) {
				clock.advance(31 * 60_000);
				emitted.push(...items(await poll(parameters, state)));
			}
			expect(emitted.length).toBeGreaterThan(0); // the event did its work
			const test = await node.poll.call(pollContext(parameters, {}, { manual: true }));
			expect(items(test)).toHaveLength(1);
			expect(sent.filter((line) => !line.startsWith('GET '))).toEqual([]);
			const paths = new Set(sent.map((line) => line.split(' ')[1]));
			expect([...paths].sort()).toEqual([LIST_PATH[event], ...sideReads].sort());
		},
	);

	it(`Call Ended follows at most ${MAX_PENDING} calls on their way: a poll stops before more (even an ended one past them), the next goes on`, async () => {
		// pages of 150: with the service's 100 a page the request ceiling stops a poll before it
		// could follow this many (about 850); larger pages let a poll read past the limit
		const { world, sent } = serve({ calls: [call(1)], pageSize: 150 });
		const state: IDataObject = {};
		await poll(CALLS, state);
		const past = MAX_PENDING + 100; // calls 2..past+1 start; the next one ends at once
		world.calls.unshift(call(past + 2), ...calls(2, past + 1, 'in-progress'));
		let before = sent.length;
		expect(await poll(CALLS, state)).toBeNull();
		expect(Object.keys(walk(state).pending as object).map(Number)).toEqual(
			range(2, MAX_PENDING + 1),
		);
		expect(walk(state).maxId).toBe(MAX_PENDING + 1);
		expect(sent.length - before).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);

		// 100 of the followed calls end: emitted; the calls past the limit are followed now, the ended one emitted
		world.calls = world.calls.map((c) => (Number(c.id) <= 101 ? call(Number(c.id)) : c));
		before = sent.length;
		expect(ids(await poll(CALLS, state))).toEqual([...range(2, 101), past + 2]);
		expect(Object.keys(walk(state).pending as object)).toHaveLength(MAX_PENDING);
		expect(sent.length - before).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
		// all end: each call once
		world.calls = world.calls.map((c) => call(Number(c.id)));
		expect(ids(await poll(CALLS, state))).toEqual(range(102, past + 1));
		expect(await poll(CALLS, state)).toBeNull();
		expect(sent.every((line) => line.startsWith('GET /api/user/calls '))).toBe(true);
	});

	it(`Call Ended: of the calls in progress at activation below the first page, the newest ${RUNNING_PAGES * PER_PAGE} are followed, with a warning; the older are never emitted`, async () => {
		const followed = RUNNING_PAGES * PER_PAGE;
		const oldest = followed + 50; // calls 1..50 are beyond the limit
		const newer = calls(oldest + 1, oldest + 100); // a full first page that ended before activation
		const { world, sent } = serve({ calls: [...newer, ...calls(1, oldest, 'in-progress')] });
		const state: IDataObject = {};
		const warnings: string[] = [];
		expect(await poll(CALLS, state, warnings)).toBeNull();
		const statusLists = (inProgressPages: number) =>
			WAITING.flatMap((status) =>
				range(1, status === 'in-progress' ? inProgressPages : 1).map(
					(page) => `GET /api/user/calls page=${page} per_page=100 status=${status}`,
				),
			);
		expect(sent).toEqual([list(), ...statusLists(RUNNING_PAGES)]);
		expect(warnings).toEqual([
			`Voice Chat Assistant Polling Trigger: more calls were on their way at activation than the trigger follows (${followed} a status, ${MAX_PENDING} in all): only the newest are emitted when they end`,
		]);
		expect(Object.keys(walk(state).running as object).map(Number)).toEqual(range(51, oldest));

		// the oldest two followed and not followed end: only the followed come, looked up by number
		const ended = [1, 50, 51, oldest];
		world.calls = world.calls.map((c) => (ended.includes(Number(c.id)) ? call(Number(c.id)) : c));
		sent.length = 0;
		expect(ids(await poll(CALLS, state, warnings))).toEqual([51, oldest]);
		expect(sent).toEqual([...statusLists(RUNNING_PAGES), byNumber(51), byNumber(oldest), list()]);
		world.calls = world.calls.map((c) => call(Number(c.id)));
		expect(ids(await poll(CALLS, state, warnings))).not.toContain(1);
		expect(warnings).toHaveLength(1);
	});

	it(`Call Ended: ${MAX_LOOKUPS_PER_POLL} calls that left the running lists are looked up a poll, the others at the next`, async () => {
		const watched = 2 * MAX_LOOKUPS_PER_POLL + 5;
		const { world, sent } = serve({
			calls: [...calls(watched + 1, watched + 100), ...calls(1, watched, 'in-progress')],
		});
		const state: IDataObject = {};
		await poll(CALLS, state);
		expect(Object.keys(walk(state).running as object)).toHaveLength(watched);
		world.calls = world.calls.map((c) => call(Number(c.id))); // all end at once
		const statusLists = WAITING.map((status) => list(` status=${status}`));
		for (const [from, to] of [
			[1, MAX_LOOKUPS_PER_POLL],
			[MAX_LOOKUPS_PER_POLL + 1, 2 * MAX_LOOKUPS_PER_POLL],
			[2 * MAX_LOOKUPS_PER_POLL + 1, watched],
		]) {
			sent.length = 0;
			expect(ids(await poll(CALLS, state))).toEqual(range(from, to));
			expect(sent).toEqual([...statusLists, ...range(from, to).map(byNumber), list()]);
		}
		// nothing followed any more: one request a poll
		sent.length = 0;
		expect(await poll(CALLS, state)).toBeNull();
		expect(sent).toEqual([list()]);
	});

	it(`Conversation Ended watches at most ${MAX_WATCHED} chats: a poll stops before more, the next goes on`, async () => {
		// pages of 150, for the same reason as Call Ended's limit above
		const { world, sent } = serve({ chats: [chat('c0', at(-7_200_000))], pageSize: 150 });
		const state: IDataObject = {};
		await poll(CHATS, state);
		const count = MAX_WATCHED + 100;
		const all = range(1, count).map((i) => chat(`c${i}`, at(-3_600_000 + i * 1000)));
		world.chats = [...[...all].reverse(), ...world.chats];
		const talking = new Set(all.map((c) => String(c.id)));
		/** The chats still talking get a message; the clock moves on first. */
		const later = async (minutes: number) => {
			clock.advance(minutes * 60_000);
			for (const c of all) {
				if (!talking.has(String(c.id))) continue;
				c.message_count = Number(c.message_count) + 1;
				c.updated_at = at(clock.now() - 1_700_000_000_000);
			}
			return await poll(CHATS, state);
		};
		const watching = () => Object.keys((state.conversations as IDataObject).watch as object);
		const named = (from: number, to: number) => range(from, to).map((i) => `c${i}`);

		expect(await later(1)).toBeNull();
		expect(watching().sort()).toEqual(named(1, MAX_WATCHED).sort());
		// 100 watched chats fall silent and end: emitted; the chats past the limit still wait
		named(1, 100).forEach((id) => talking.delete(id));
		expect(ids(await later(31))).toEqual(named(1, 100));
		expect(watching()).not.toContain(`c${MAX_WATCHED + 1}`);
		// the next poll watches them
		expect(await later(1)).toBeNull();
		expect(watching()).toEqual(expect.arrayContaining(named(MAX_WATCHED + 1, count)));
		expect(watching()).toHaveLength(MAX_WATCHED);
		named(MAX_WATCHED + 1, count).forEach((id) => talking.delete(id));
		expect(ids(await later(31))).toEqual(named(MAX_WATCHED + 1, count));
		const histories = sent.filter((line) => line.startsWith('GET /api/conversations/'));
		expect(histories).toEqual(
			[...named(1, 100), ...named(MAX_WATCHED + 1, count)].map(
				(id) => `GET /api/conversations/${id}`,
			),
		);
		expect(sent.filter((line) => !line.startsWith('GET '))).toEqual([]);
	});

	it(`Conversation Ended: a chat that has not ended ${WATCH_TTL_MS / 3_600_000} hours after it was first seen is given up, named in the log, never emitted`, async () => {
		const { world, sent } = serve({ chats: [chat('old', at(-3_600_000))] });
		const state: IDataObject = {};
		const warnings: string[] = [];
		await poll(CHATS, state, warnings);
		world.chats.unshift(chat('x', at(0)));
		// a message every 20 minutes (Inactivity Minutes: 30), for a whole day and a bit
		const first = clock.now();
		for (let step = 0; clock.now() - first <= WATCH_TTL_MS + 20 * 60_000; step++) {
			world.chats[0] = {
				...world.chats[0],
				message_count: step + 1,
				updated_at: at(clock.now() - 1_700_000_000_000),
			};
			expect(await poll(CHATS, state, warnings)).toBeNull();
			expect(warnings).toHaveLength(clock.now() - first > WATCH_TTL_MS ? 1 : 0);
			clock.advance(20 * 60_000);
		}
		expect(warnings).toEqual([
			'Voice Chat Assistant Polling Trigger: chat x did not end within 24 hours: given up, it is not emitted',
		]);
		// silent from now on: still never emitted
		clock.advance(2 * 60 * 60_000);
		expect(await poll(CHATS, state, warnings)).toBeNull();
		expect(sent.filter((line) => !line.startsWith('GET /api/user/conversations '))).toEqual([]);
		expect(warnings).toHaveLength(1);
	});
});
