/**
 * The polling trigger after an outage: every call and chat that happened
 * while the workflow was off is emitted once, oldest first, over as many
 * polls as it takes, no poll above the request ceiling; a poll that fails
 * leaves the saved position as it was; a failed side read does not hold the
 * event back; what is given up is logged with its id.
 */
import nock from 'nock';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { MAX_REQUESTS_PER_POLL } from '../../../nodes/VoiceChatAssistantPollingTrigger/pages';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { poller as pollContext } from '../../helpers/pollContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();

interface Poller {
	ctx: IPollFunctions;
	warnings: string[];
}

const poller = (
	parameters: IDataObject,
	staticData: IDataObject,
	warnings: string[] = [],
): Poller => ({
	ctx: pollContext(parameters, staticData, { warnings }),
	warnings,
});

type Output = Array<Array<{ json: IDataObject; binary?: IDataObject }>> | null;
const items = (output: unknown) => (output as Output)?.[0] ?? [];

interface Request {
	path: string;
	query: Record<string, string>;
	authorization: string | undefined;
}

/**
 * The service's newest-first list as SPEC describes it (Laravel's envelope:
 * total, per_page, current_page, last_page, next_page_url), served by nock
 * from `rows()`, which the test may change between requests (`onRequest`).
 * Every request is recorded.
 */
function serveList<T extends IDataObject>(
	path: string,
	rows: () => T[],
	onRequest: (
		request: Request,
		index: number,
	) => void | { status: number; body: IDataObject } = () => {},
) {
	const requests: Request[] = [];
	nock(TEST_BASE_URL)
		.persist()
		.get(path)
		.query(true)
		.reply(function (uri) {
			const url = new URL(uri, TEST_BASE_URL);
			const request: Request = {
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				authorization: this.req.headers.authorization as string | undefined,
			};
			requests.push(request);
			const fault = onRequest(request, requests.length);
			if (fault) return [fault.status, fault.body];
			const all = rows();
			const perPage = Number(request.query.per_page ?? 15);
			const page = Number(request.query.page ?? 1);
			const total = all.length;
			const lastPage = Math.max(1, Math.ceil(total / perPage));
			return [
				200,
				{
					current_page: page,
					data: all.slice((page - 1) * perPage, page * perPage),
					last_page: lastPage,
					next_page_url: page < lastPage ? `${TEST_BASE_URL}${path}?page=${page + 1}` : null,
					per_page: perPage,
					total,
				},
			];
		});
	return requests;
}

const CALL_PARAMETERS = {
	event: 'callEnded',
	assistantId: { __rl: true, mode: 'list', value: '2' },
	callFilters: { type: 'outbound' },
};
const call = (id: number, status = 'completed') => ({
	id,
	status,
	assistant_id: 2,
	type: 'outbound',
});

/** Calls 1..n, all ended, newest first. */
function callList() {
	const calls: IDataObject[] = [];
	return {
		calls,
		add(count: number, status = 'completed') {
			const from = calls.length + 1;
			for (let id = from; id < from + count; id++) calls.unshift(call(id, status));
		},
	};
}

/** Polls until a poll emits nothing; returns the ids per poll and the requests per poll. */
async function pollUntilQuiet(
	parameters: IDataObject,
	state: IDataObject,
	requests: Request[],
	warnings: string[] = [],
) {
	const emitted: number[][] = [];
	const perPoll: Request[][] = [];
	for (let round = 0; round < 50; round++) {
		const before = requests.length;
		const output = await node.poll.call(poller(parameters, state, warnings).ctx);
		perPoll.push(requests.slice(before));
		if (output === null) return { emitted, perPoll };
		emitted.push(items(output).map((item) => Number(item.json.id)));
	}
	throw new Error('the backlog did not end within 50 polls');
}

const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('Polling trigger after an outage', () => {
	const clock = fakeClockPerTest();

	describe('Call Ended', () => {
		const exactCallQuery = (page: number) => ({
			assistant_id: '2',
			type: 'outbound',
			per_page: '100',
			page: String(page),
		});

		it('1,500 calls ended while off: two polls, each call once and oldest first, 10 requests at most, the exact pages', async () => {
			const list = callList();
			list.add(10);
			const requests = serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {};
			expect(await node.poll.call(poller(CALL_PARAMETERS, state).ctx)).toBeNull();
			list.add(1500);

			const { emitted, perPoll } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
			expect(emitted.flat()).toEqual(range(11, 1510));
			// the first poll finds the floor's page from the kept position (page 16: calls 10..1), then reads upward
			expect(perPoll[0].map((r) => r.query)).toEqual(
				[1, 16, 15, 14, 13, 12, 11, 10, 9, 8].map(exactCallQuery),
			);
			expect(emitted[0]).toEqual(range(11, 810));
			expect(perPoll[1].map((r) => r.query)).toEqual([1, 8, 7, 6, 5, 4, 3, 2].map(exactCallQuery));
			expect(emitted[1]).toEqual(range(811, 1510));
			// the quiet poll afterwards: one request
			expect(perPoll[2].map((r) => r.query)).toEqual([exactCallQuery(1)]);
			for (const request of requests) {
				expect(request.path).toBe('/api/user/calls');
				expect(request.authorization).toBe(`Bearer ${TEST_API_KEY}`);
			}
		});

		it('3,000 calls ended while off: each once, oldest first, no poll above the ceiling', async () => {
			const list = callList();
			list.add(40);
			const requests = serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {};
			await node.poll.call(poller(CALL_PARAMETERS, state).ctx);
			list.add(3000);

			const { emitted, perPoll } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
			expect(emitted.flat()).toEqual(range(41, 3040));
			expect(emitted).toHaveLength(4);
			for (const poll of perPoll) expect(poll.length).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
			for (const request of requests)
				expect(Object.keys(request.query).sort()).toEqual([
					'assistant_id',
					'page',
					'per_page',
					'type',
				]);
		});

		it('calls that arrive between the reads of one poll shift the pages: nothing is skipped or emitted twice', async () => {
			const list = callList();
			list.add(5);
			let poll = 0;
			let pollStart = 0;
			// during the first backlog poll, 150 calls start and end before its third read, 30 more before its sixth
			const requests = serveList(
				'/api/user/calls',
				() => list.calls,
				(_request, index) => {
					const inPoll = index - pollStart;
					if (poll === 1 && (inPoll === 3 || inPoll === 6)) list.add(inPoll === 3 ? 150 : 30);
				},
			);
			const state: IDataObject = {};
			await node.poll.call(poller(CALL_PARAMETERS, state).ctx);
			list.add(1200);

			const emitted: number[] = [];
			for (poll = 1; poll < 10; poll++) {
				pollStart = requests.length;
				const output = await node.poll.call(poller(CALL_PARAMETERS, state).ctx);
				expect(requests.length - pollStart).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
				if (output === null) break;
				emitted.push(...items(output).map((item) => Number(item.json.id)));
			}
			expect(emitted).toEqual(range(6, 5 + 1200 + 180));
		});

		it('a state kept without a position (older version) finds the floor by a binary search', async () => {
			const list = callList();
			list.add(2000);
			const requests = serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {
				settings: JSON.stringify(['callEnded', { assistant_id: 2, type: 'outbound' }]),
				calls: { walk: { maxId: 1000, pending: {} } },
			};
			const { emitted, perPoll } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
			expect(emitted.flat()).toEqual(range(1001, 2000));
			// pages 2..20 probed: 11 (calls 1000..901, the floor's page), 6, 9, 10; then upward from 11
			expect(perPoll[0].map((r) => r.query)).toEqual(
				[1, 11, 6, 9, 10, 10, 9, 8, 7, 6].map(exactCallQuery),
			);
			expect(emitted[0]).toEqual(range(1001, 1500));
			// from then on the position is kept: the floor's page at once
			expect(perPoll[1].map((r) => r.query)).toEqual([1, 6, 5, 4, 3, 2].map(exactCallQuery));
			expect(emitted[1]).toEqual(range(1501, 2000));
		});

		it('a poll that fails midway (500 on its third page, and on both resends) leaves the state unchanged; the next poll emits the same calls, once', async () => {
			const list = callList();
			list.add(10);
			let failNext = false;
			let pollStart = 0;
			const requests = serveList(
				'/api/user/calls',
				() => list.calls,
				(_request, index) =>
					failNext && index - pollStart >= 3
						? { status: 500, body: { message: 'Server Error' } }
						: undefined,
			);
			const state: IDataObject = {};
			await node.poll.call(poller(CALL_PARAMETERS, state).ctx);
			list.add(500);
			const before = JSON.parse(JSON.stringify(state));

			failNext = true;
			pollStart = requests.length;
			await expect(node.poll.call(poller(CALL_PARAMETERS, state).ctx)).rejects.toThrow();
			// the third page, sent again twice after its 500s (a read is safe to send again)
			expect(requests.length - pollStart).toBe(5);
			expect(state).toEqual(before);

			failNext = false;
			const { emitted } = await pollUntilQuiet(CALL_PARAMETERS, state, requests);
			expect(emitted.flat()).toEqual(range(11, 510));
		});

		it('a pending call that never ends is given up after 3 hours, logged with its id; the others come through', async () => {
			const list = callList();
			list.add(3);
			list.calls.unshift(call(4, 'in-progress'));
			const requests = serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {};
			const warnings: string[] = [];
			await node.poll.call(poller(CALL_PARAMETERS, state, warnings).ctx);
			clock.advance(60 * 60_000);
			list.calls.unshift(call(5), call(6, 'ringing'));
			list.calls.sort((a, b) => Number(b.id) - Number(a.id));
			expect(
				items(await node.poll.call(poller(CALL_PARAMETERS, state, warnings).ctx)).map(
					(i) => i.json.id,
				),
			).toEqual([5]);
			expect(warnings).toEqual([]);
			clock.advance(2 * 60 * 60_000 + 1);
			list.calls[0] = call(6, 'completed');
			expect(
				items(await node.poll.call(poller(CALL_PARAMETERS, state, warnings).ctx)).map(
					(i) => i.json.id,
				),
			).toEqual([6]);
			expect(warnings).toEqual([
				'Voice Chat Assistant Polling Trigger: call 4 is still not final after 3 hours: given up, it is not emitted',
			]);
			expect((state.calls as IDataObject).walk).toEqual(
				expect.objectContaining({ maxId: 6, pending: {} }),
			);
			expect(requests.length).toBe(3);
		});

		it('a pending call that is deleted from the list is given up with a warning naming it', async () => {
			const list = callList();
			list.add(3);
			list.calls.unshift(call(4, 'ringing'));
			serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {};
			const warnings: string[] = [];
			await node.poll.call(poller(CALL_PARAMETERS, state, warnings).ctx);
			list.calls[0] = call(5);
			expect(
				items(await node.poll.call(poller(CALL_PARAMETERS, state, warnings).ctx)).map(
					(i) => i.json.id,
				),
			).toEqual([5]);
			expect(warnings).toEqual([
				'Voice Chat Assistant Polling Trigger: call 4 is no longer listed: given up, it is not emitted',
			]);
			expect((state.calls as IDataObject).walk).toEqual(
				expect.objectContaining({ maxId: 5, pending: {} }),
			);
		});

		it('a call with a status outside the known ones is given up with a warning naming it', async () => {
			const list = callList();
			list.add(2);
			serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {};
			const warnings: string[] = [];
			await node.poll.call(poller(CALL_PARAMETERS, state, warnings).ctx);
			list.calls.unshift(call(4), call(3, 'voicemail-left'));
			list.calls.sort((a, b) => Number(b.id) - Number(a.id));
			expect(
				items(await node.poll.call(poller(CALL_PARAMETERS, state, warnings).ctx)).map(
					(i) => i.json.id,
				),
			).toEqual([4]);
			expect(warnings).toEqual([
				'Voice Chat Assistant Polling Trigger: call 3 has the status "voicemail-left", which is not a call status: given up, it is not emitted',
			]);
		});

		it('a recording that cannot be downloaded: the call is emitted without it, with recording_error', async () => {
			const parameters = {
				...CALL_PARAMETERS,
				callFilters: { type: 'outbound', downloadRecording: true },
			};
			const list = callList();
			list.add(1);
			serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {};
			await node.poll.call(poller(parameters, state).ctx);
			list.calls.unshift(
				{ ...call(3), recording_url: `${TEST_BASE_URL}/recordings/3.mp3` },
				{ ...call(2), recording_url: `${TEST_BASE_URL}/recordings/2.mp3` },
			);
			const two = nock(TEST_BASE_URL).get('/recordings/2.mp3').reply(404, { message: 'Not found' });
			const three = nock(TEST_BASE_URL)
				.get('/recordings/3.mp3')
				.reply(200, Buffer.from('ID3-audio'), { 'content-type': 'audio/mpeg' });
			const emitted = items(await node.poll.call(poller(parameters, state).ctx));
			expect(emitted.map((i) => i.json.id)).toEqual([2, 3]);
			expect(emitted[0].binary).toBeUndefined();
			expect(emitted[0].json.recording_error).toEqual(expect.stringContaining('2'));
			expect(emitted[1].binary).toEqual({
				data: expect.objectContaining({ mimeType: 'audio/mpeg' }),
			});
			expect(emitted[1].json.recording_error).toBeUndefined();
			expect(two.isDone() && three.isDone()).toBe(true);
			expect(JSON.stringify(emitted)).not.toContain(TEST_API_KEY);
			// the position moved past both: the next poll emits nothing
			expect(await node.poll.call(poller(parameters, state).ctx)).toBeNull();
		});

		it('downloads at most 100 recordings a poll: the calls past them come with the next poll, in order', async () => {
			const parameters = {
				...CALL_PARAMETERS,
				callFilters: { type: 'outbound', downloadRecording: true },
			};
			const list = callList();
			list.add(1);
			const requests = serveList('/api/user/calls', () => list.calls);
			const state: IDataObject = {};
			await node.poll.call(poller(parameters, state).ctx);
			list.add(150);
			for (const c of list.calls)
				c.recording_url = `${TEST_BASE_URL}/recordings/${String(c.id)}.mp3`;
			const downloads: string[] = [];
			nock(TEST_BASE_URL)
				.persist()
				.get(/^\/recordings\/\d+\.mp3$/)
				.reply(function (uri) {
					downloads.push(uri);
					return [200, Buffer.from('ID3'), { 'content-type': 'audio/mpeg' }];
				});
			const first = items(await node.poll.call(poller(parameters, state).ctx));
			expect(first.map((i) => i.json.id)).toEqual(range(2, 101));
			expect(downloads).toEqual(range(2, 101).map((id) => `/recordings/${id}.mp3`));
			const second = items(await node.poll.call(poller(parameters, state).ctx));
			expect(second.map((i) => i.json.id)).toEqual(range(102, 151));
			expect(second.every((i) => i.binary?.data)).toBe(true);
			expect(downloads).toHaveLength(150);
			expect(await node.poll.call(poller(parameters, state).ctx)).toBeNull();
			expect(requests).toHaveLength(5);
		});
	});

	describe('chats', () => {
		const chat = (id: string, created: string, count = 1) => ({
			id,
			created_at: created,
			message_count: count,
			updated_at: created,
			type: 'widget',
		});
		const NEW = {
			event: 'newConversation',
			assistantId: '',
			conversationFilters: { type: 'widget' },
		};
		const second = (s: number) =>
			new Date(Date.UTC(2026, 10, 23, 10, 0, 0) + s * 1000)
				.toISOString()
				.replace('T', ' ')
				.slice(0, 19);
		/** An order among chats of the same second that is neither by id nor by arrival. */
		const scramble = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 997, 7);
		const newestFirst = (chats: IDataObject[]) =>
			[...chats].sort(
				(a, b) =>
					String(b.created_at).localeCompare(String(a.created_at)) ||
					scramble(String(a.id)) - scramble(String(b.id)),
			);

		it('New Conversation: 1,300 chats, seven per second so that ties cross every page boundary: each once, in time order, within the ceiling', async () => {
			let chats: IDataObject[] = [chat('old-1', second(0)), chat('old-2', second(0))];
			const requests = serveList('/api/user/conversations', () => newestFirst(chats));
			const state: IDataObject = {};
			await node.poll.call(poller(NEW, state).ctx);
			const added: IDataObject[] = [];
			for (let i = 0; i < 1300; i++) added.push(chat(`c-${i}`, second(1 + Math.floor(i / 7))));
			// two more chats in the mark's own second, created after the first poll
			added.push(chat('late-a', second(0)), chat('late-b', second(0)));
			chats = [...chats, ...added];

			const emitted: string[] = [];
			const polls: number[] = [];
			for (let round = 0; round < 10; round++) {
				const before = requests.length;
				const output = await node.poll.call(poller(NEW, state).ctx);
				polls.push(requests.length - before);
				if (output === null) break;
				emitted.push(...items(output).map((i) => String(i.json.id)));
			}
			expect(emitted).toHaveLength(1302);
			expect(new Set(emitted).size).toBe(1302);
			expect(new Set(emitted)).toEqual(new Set(added.map((c) => c.id)));
			const times = emitted.map((id) => String(chats.find((c) => c.id === id)!.created_at));
			expect(times).toEqual([...times].sort());
			expect(polls.length).toBeGreaterThan(2); // more than one poll was needed
			for (const count of polls) expect(count).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
			for (const request of requests)
				expect(request.query).toEqual(expect.objectContaining({ type: 'widget', per_page: '100' }));
		});

		it('New Conversation on a cursor list without a total: 1,500 chats come through once each, in time order, within the ceiling', async () => {
			let chats: IDataObject[] = [chat('old-1', second(0))];
			const requests: Request[] = [];
			const keyOf = (c: IDataObject) => `${String(c.created_at)}|${String(c.id)}`;
			// the cursor names the last item of the page: the next page starts after it, whatever arrived on top
			nock(TEST_BASE_URL)
				.persist()
				.get('/api/user/conversations')
				.query(true)
				.reply(function (uri) {
					const url = new URL(uri, TEST_BASE_URL);
					const query = Object.fromEntries(url.searchParams);
					requests.push({
						path: url.pathname,
						query,
						authorization: this.req.headers.authorization as string | undefined,
					});
					const all = newestFirst(chats);
					const start = query.cursor
						? all.findIndex((c) => keyOf(c) === Buffer.from(query.cursor, 'base64url').toString()) +
							1
						: 0;
					const data = all.slice(start, start + Number(query.per_page));
					const more = start + data.length < all.length;
					return [
						200,
						{
							data,
							per_page: Number(query.per_page),
							next_cursor: more
								? Buffer.from(keyOf(data[data.length - 1])).toString('base64url')
								: null,
							prev_cursor: null,
						},
					];
				});
			const state: IDataObject = {};
			await node.poll.call(poller(NEW, state).ctx);
			const added: IDataObject[] = [];
			for (let i = 0; i < 1500; i++) added.push(chat(`c-${i}`, second(1 + Math.floor(i / 3))));
			chats = [...chats, ...added];

			const emitted: string[] = [];
			const polls: number[] = [];
			for (let round = 0; round < 40 && emitted.length < 1500; round++) {
				const before = requests.length;
				const output = await node.poll.call(poller(NEW, state).ctx);
				polls.push(requests.length - before);
				emitted.push(...items(output).map((i) => String(i.json.id)));
			}
			// once each, in time order (chats of the same second in the list's own order)
			expect(emitted).toHaveLength(1500);
			expect(new Set(emitted)).toEqual(new Set(added.map((c) => c.id)));
			const times = emitted.map((id) => String(added.find((c) => c.id === id)!.created_at));
			expect(times).toEqual([...times].sort());
			for (const count of polls) expect(count).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
			// caught up: the next poll reads one page and emits nothing
			const before = requests.length;
			expect(await node.poll.call(poller(NEW, state).ctx)).toBeNull();
			expect(requests.length - before).toBe(1);
			for (const request of requests) {
				expect(Object.keys(request.query).sort()).toEqual(
					request.query.cursor ? ['cursor', 'per_page', 'type'] : ['page', 'per_page', 'type'],
				);
			}
		});

		it("Conversation Ended after an outage: chats silent long enough by the service's own times come at once, 100 histories a poll, oldest first", async () => {
			const parameters = {
				event: 'conversationEnded',
				assistantId: '',
				conversationFilters: { type: 'widget', inactivityMinutes: 30 },
			};
			const chats: IDataObject[] = [chat('before', second(0))];
			const requests = serveList('/api/user/conversations', () => newestFirst(chats));
			const histories: string[] = [];
			nock(TEST_BASE_URL)
				.persist()
				.get(/^\/api\/conversations\/[\w-]+$/)
				.reply(function (uri) {
					histories.push(uri.split('/').pop()!);
					return [200, { status: true, history: [{ role: 'user', content: 'Hello' }] }];
				});
			const state: IDataObject = {};
			await node.poll.call(poller(parameters, state).ctx);
			// one chat a minute for 250 minutes while the workflow was off; the last 30 may still go on
			const added = Array.from({ length: 250 }, (_, i) => chat(`c-${i}`, second(60 + i * 60)));
			chats.push(...added);

			const polls: Array<{ ids: string[]; requests: number; histories: number }> = [];
			for (let round = 0; round < 4; round++) {
				const before = { requests: requests.length, histories: histories.length };
				const output = await node.poll.call(poller(parameters, state).ctx);
				polls.push({
					ids: items(output).map((i) => String(i.json.id)),
					requests: requests.length - before.requests,
					histories: histories.length - before.histories,
				});
			}
			const ids = (from: number, to: number) => range(from, to).map((i) => `c-${i}`);
			expect(polls.map((p) => p.ids)).toEqual([ids(0, 99), ids(100, 199), ids(200, 219), []]);
			for (const poll of polls) {
				expect(poll.requests).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
				expect(poll.histories).toBe(poll.ids.length);
			}
			// the last 30 chats were watched: silent for 30 minutes by the trigger's clock, they come too
			clock.advance(30 * 60_000);
			const rest = items(await node.poll.call(poller(parameters, state).ctx));
			expect(rest.map((i) => i.json.id)).toEqual(ids(220, 249));
			expect(rest[0].json).toEqual(expect.objectContaining({ transcript: 'user: Hello' }));
			expect(await node.poll.call(poller(parameters, state).ctx)).toBeNull();
			expect(histories).toHaveLength(250);
			expect(new Set(histories).size).toBe(250);
		});

		it('Conversation Ended: a chat history that cannot be read: the chat is emitted without messages, with history_error', async () => {
			const parameters = {
				event: 'conversationEnded',
				assistantId: '',
				conversationFilters: { type: 'widget', inactivityMinutes: 10 },
			};
			const chats = [chat('a', second(0))];
			serveList('/api/user/conversations', () => newestFirst(chats));
			const state: IDataObject = {};
			await node.poll.call(poller(parameters, state).ctx);
			chats.push(chat('b', second(5), 2), chat('c', second(6), 3));
			expect(await node.poll.call(poller(parameters, state).ctx)).toBeNull();
			clock.advance(11 * 60_000);
			const b = nock(TEST_BASE_URL)
				.get('/api/conversations/b')
				.reply(500, { message: 'Server Error' });
			const c = nock(TEST_BASE_URL)
				.get('/api/conversations/c')
				.reply(200, { status: true, history: [{ role: 'user', content: 'Hi' }] });
			const emitted = items(await node.poll.call(poller(parameters, state).ctx)).map((i) => i.json);
			expect(emitted.map((j) => j.id)).toEqual(['b', 'c']);
			expect(emitted[0]).toEqual(
				expect.objectContaining({ id: 'b', history_error: expect.any(String) }),
			);
			expect(emitted[0].history).toBeUndefined();
			expect(emitted[1]).toEqual(expect.objectContaining({ id: 'c', transcript: 'user: Hi' }));
			expect(b.isDone() && c.isDone()).toBe(true);
			expect(await node.poll.call(poller(parameters, state).ctx)).toBeNull();
		});
	});
});
