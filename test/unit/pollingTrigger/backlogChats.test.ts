/**
 * The polling trigger's chat events after an outage: every chat started or
 * ended while the workflow was off is emitted once, in time order (ties across
 * page boundaries, cursor lists), no poll above the request ceiling; a chat
 * history that cannot be read does not hold the chat back.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { MAX_REQUESTS_PER_POLL } from '../../../nodes/VoiceChatAssistantPollingTrigger/pages';
import { TEST_BASE_URL } from '../../helpers/context';
import {
	describeOutage,
	items,
	node,
	poller,
	range,
	recordRequests,
	serveList,
} from './backlogFixtures';

describeOutage('chats', (clock) => {
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
		const keyOf = (c: IDataObject) => `${String(c.created_at)}|${String(c.id)}`;
		// the cursor names the last item of the page: the next page starts after it, whatever arrived on top
		const requests = recordRequests('/api/user/conversations', ({ query }) => {
			const all = newestFirst(chats);
			const start = query.cursor
				? all.findIndex((c) => keyOf(c) === Buffer.from(query.cursor, 'base64url').toString()) + 1
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
