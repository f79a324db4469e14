/**
 * The polling trigger: what each poll asks the service, what it emits, and
 * that nothing is emitted twice or from before activation.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { TEST_BASE_URL } from '../../helpers/context';
import { poller as pollContext } from '../../helpers/pollContext';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();

/** A poll context: trigger mode unless `manual`, with the static data kept across polls. */
const poller = (parameters: IDataObject, staticData: IDataObject, manual = false) =>
	pollContext(parameters, staticData, { manual });

const call = (id: number, status = 'completed') => ({
	id,
	status,
	transcript: `call ${id}`,
	created_at: `2026-11-23 10:00:${String(id % 60).padStart(2, '0')}`,
});
const page = (data: object[], next = false) => ({
	data,
	current_page: 1,
	next_page_url: next ? `${TEST_BASE_URL}/api/user/calls?page=2` : null,
});
const json = (output: unknown) =>
	(output as Array<Array<{ json: IDataObject }>> | null)?.[0].map((item) => item.json) ?? null;

describe('Voice Chat Assistant Polling Trigger', () => {
	const clock = fakeClockPerTest();

	describe('Call Ended', () => {
		const parameters = {
			event: 'callEnded',
			assistantId: { __rl: true, mode: 'list', value: '2' },
			callFilters: { type: 'outbound' },
		};
		const calls = (data: object[], next = false) =>
			nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ assistant_id: 2, type: 'outbound', per_page: 100, page: 1 })
				.reply(200, page(data, next));
		/** The first poll on a list of more than one page: the lists of calls on their way. */
		const waiting = (running: Record<string, object[]> = {}) => {
			for (const status of ['in-progress', 'initiated', 'ringing'])
				nock(TEST_BASE_URL)
					.get('/api/user/calls')
					.query({ assistant_id: 2, type: 'outbound', status, per_page: 100, page: 1 })
					.reply(200, page(running[status] ?? []));
		};

		it('emits nothing old on the first poll, then each call once when it ends, oldest first', async () => {
			const state: IDataObject = {};
			calls([call(11, 'in-progress'), call(10), call(9)], true);
			waiting({ 'in-progress': [call(11, 'in-progress')] });
			expect(await node.poll.call(poller(parameters, state))).toBeNull();

			// two new calls: 13 ended, 12 still ringing; 11 (on its way at activation) ended
			calls([call(13), call(12, 'ringing'), call(11, 'completed'), call(10)], true);
			expect(json(await node.poll.call(poller(parameters, state)))?.map((c) => c.id)).toEqual([
				11, 13,
			]);

			calls([call(14, 'no-answer'), call(13), call(12, 'completed'), call(11)], true);
			expect(json(await node.poll.call(poller(parameters, state)))?.map((c) => c.id)).toEqual([
				12, 14,
			]);

			calls([call(14, 'no-answer'), call(13), call(12), call(11)], true);
			expect(await node.poll.call(poller(parameters, state))).toBeNull();
			expect(nock.isDone()).toBe(true);
		});

		it('reads further pages only while they can hold something new: the cost does not grow with the history', async () => {
			const state: IDataObject = {};
			calls([call(500)], true);
			waiting();
			await node.poll.call(poller(parameters, state));
			// 150 new calls: two pages; the second reaches the known call 500 and the walk stops there
			const newer = Array.from({ length: 150 }, (_, i) => call(650 - i));
			nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ assistant_id: 2, type: 'outbound', per_page: 100, page: 1 })
				.reply(200, page(newer.slice(0, 100), true))
				.get('/api/user/calls')
				.query({ assistant_id: 2, type: 'outbound', per_page: 100, page: 2 })
				.reply(200, page([...newer.slice(100), call(500), call(499)], true));
			const emitted = json(await node.poll.call(poller(parameters, state)));
			expect(emitted).toHaveLength(150);
			expect(emitted?.[0].id).toBe(501);
			expect(nock.isDone()).toBe(true);
		});

		it('keeps only the chosen statuses', async () => {
			const state: IDataObject = {};
			const filtered = {
				...parameters,
				callFilters: { type: 'outbound', statuses: ['no-answer', 'busy'] },
			};
			calls([call(1)]);
			await node.poll.call(poller(filtered, state));
			calls([call(4, 'busy'), call(3), call(2, 'no-answer'), call(1)]);
			expect(json(await node.poll.call(poller(filtered, state)))?.map((c) => c.id)).toEqual([2, 4]);
		});

		it('starts afresh when the settings change (no flood of old calls)', async () => {
			const state: IDataObject = {};
			calls([call(5)]);
			await node.poll.call(poller(parameters, state));
			const other = {
				...parameters,
				callFilters: { type: 'outbound', campaignId: { __rl: true, mode: 'id', value: '7' } },
			};
			nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ assistant_id: 2, type: 'outbound', campaign_id: 7, per_page: 100, page: 1 })
				.reply(200, page([call(9), call(8)]));
			expect(await node.poll.call(poller(other, state))).toBeNull();
		});

		it('Fetch Test Event shows the newest ended call and keeps no state', async () => {
			const state: IDataObject = {};
			calls([call(3, 'in-progress'), call(2, 'failed'), call(1)]);
			expect(json(await node.poll.call(poller(parameters, state, true)))?.map((c) => c.id)).toEqual(
				[2],
			);
			expect(state).toEqual({});
			calls([call(3, 'in-progress')]);
			await expect(node.poll.call(poller(parameters, state, true))).rejects.toThrow(
				'No ended call matches the settings yet',
			);
		});

		it('refuses an assistant that is not a numeric ID before asking', async () => {
			await expect(
				node.poll.call(
					poller({ ...parameters, assistantId: { __rl: true, mode: 'id', value: 'abc' } }, {}),
				),
			).rejects.toThrow('Assistant must be a numeric ID, got "abc"');
		});
	});

	describe('conversations', () => {
		const chat = (id: string, created: string, count: number, updated = created) => ({
			id,
			created_at: created,
			message_count: count,
			updated_at: updated,
			type: 'widget',
		});
		const list = (data: object[]) =>
			nock(TEST_BASE_URL)
				.get('/api/user/conversations')
				.query({ type: 'widget', per_page: 100, page: 1 })
				.reply(200, { data, next_page_url: null });

		it('New Conversation: each chat once, also two started in the same second', async () => {
			const state: IDataObject = {};
			const parameters = {
				event: 'newConversation',
				assistantId: '',
				conversationFilters: { type: 'widget' },
			};
			list([chat('a', '2026-11-23 10:00:00', 2)]);
			expect(await node.poll.call(poller(parameters, state))).toBeNull();
			list([
				chat('c', '2026-11-23 10:05:00', 1),
				chat('b', '2026-11-23 10:05:00', 1),
				chat('a', '2026-11-23 10:00:00', 2),
			]);
			expect(
				json(await node.poll.call(poller(parameters, state)))
					?.map((c) => c.id)
					.sort(),
			).toEqual(['b', 'c']);
			list([
				chat('d', '2026-11-23 10:05:00', 1),
				chat('c', '2026-11-23 10:05:00', 1),
				chat('b', '2026-11-23 10:05:00', 1),
			]);
			expect(json(await node.poll.call(poller(parameters, state)))?.map((c) => c.id)).toEqual([
				'd',
			]);
		});

		it('Conversation Ended: a chat silent for the inactivity time is emitted once, with its messages', async () => {
			const state: IDataObject = {};
			const parameters = {
				event: 'conversationEnded',
				assistantId: '',
				conversationFilters: { type: 'widget', inactivityMinutes: 10 },
			};
			list([]);
			await node.poll.call(poller(parameters, state));
			list([chat('x', '2026-11-23 10:00:00', 1)]);
			expect(await node.poll.call(poller(parameters, state))).toBeNull();
			clock.advance(6 * 60_000);
			list([chat('x', '2026-11-23 10:00:00', 3, '2026-11-23 10:06:00')]);
			expect(await node.poll.call(poller(parameters, state))).toBeNull();
			clock.advance(6 * 60_000);
			list([chat('x', '2026-11-23 10:00:00', 3, '2026-11-23 10:06:00')]);
			expect(await node.poll.call(poller(parameters, state))).toBeNull(); // silent for 6 of 10 minutes
			clock.advance(5 * 60_000);
			list([chat('x', '2026-11-23 10:00:00', 3, '2026-11-23 10:06:00')]);
			nock(TEST_BASE_URL)
				.get('/api/conversations/x')
				.reply(200, {
					status: true,
					history: [
						{ role: 'assistant', content: 'Hi!' },
						{ role: 'user', content: 'Bye' },
					],
				});
			expect(json(await node.poll.call(poller(parameters, state)))).toEqual([
				expect.objectContaining({
					id: 'x',
					message_count: 3,
					transcript: 'assistant: Hi!\nuser: Bye',
					history: expect.any(Array),
				}),
			]);
			clock.advance(60 * 60_000);
			list([chat('x', '2026-11-23 10:00:00', 3, '2026-11-23 10:06:00')]);
			expect(await node.poll.call(poller(parameters, state))).toBeNull();
			expect(nock.isDone()).toBe(true);
		});

		it('follows cursor pagination too', async () => {
			const state: IDataObject = {};
			const parameters = {
				event: 'newConversation',
				assistantId: '',
				conversationFilters: { type: 'widget' },
			};
			list([chat('a', '2026-11-23 10:00:00', 1)]);
			await node.poll.call(poller(parameters, state));
			nock(TEST_BASE_URL)
				.get('/api/user/conversations')
				.query({ type: 'widget', per_page: 100, page: 1 })
				.reply(200, { data: [chat('c', '2026-11-23 10:02:00', 1)], next_cursor: 'abc' })
				.get('/api/user/conversations')
				.query({ type: 'widget', per_page: 100, cursor: 'abc' })
				.reply(200, {
					data: [chat('b', '2026-11-23 10:01:00', 1), chat('a', '2026-11-23 10:00:00', 1)],
					next_cursor: 'def',
				})
				// a chat of the mark's own second could follow "a": the walk reads on to an older one
				.get('/api/user/conversations')
				.query({ type: 'widget', per_page: 100, cursor: 'def' })
				.reply(200, { data: [chat('z', '2026-11-23 09:59:59', 1)], next_cursor: 'ghi' });
			expect(json(await node.poll.call(poller(parameters, state)))?.map((c) => c.id)).toEqual([
				'b',
				'c',
			]);
			expect(nock.isDone()).toBe(true);
		});
	});

	it('Document Processed: a document deleted while processing is given up (not emitted), and the log says so', async () => {
		const state: IDataObject = {};
		const warnings: string[] = [];
		const parameters = {
			event: 'documentProcessed',
			knowledgebaseId: { __rl: true, mode: 'list', value: '4' },
		};
		const docs = (data: object[]) =>
			nock(TEST_BASE_URL).get('/api/user/knowledgebases/4/documents').reply(200, { data });
		docs([{ id: 2, status: 'processing' }]);
		expect(await node.poll.call(pollContext(parameters, state, { warnings }))).toBeNull();
		docs([]);
		expect(await node.poll.call(pollContext(parameters, state, { warnings }))).toBeNull();
		expect(warnings).toEqual([
			'Voice Chat Assistant Polling Trigger: document 2 of knowledgebase 4 is no longer listed before it was processed: given up, it is not emitted',
		]);
	});

	it('Document Processed: a knowledgebase that is not a numeric ID fails the activation, naming it, before any request', async () => {
		const parameters = {
			event: 'documentProcessed',
			knowledgebaseId: { __rl: true, mode: 'id', value: 'faq' },
		};
		await expect(node.poll.call(poller(parameters, {}))).rejects.toThrow(
			'Knowledgebase must be a numeric ID, got "faq"',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Document Processed: one request per poll; a document is emitted when it leaves processing', async () => {
		const state: IDataObject = {};
		const parameters = {
			event: 'documentProcessed',
			knowledgebaseId: { __rl: true, mode: 'list', value: '4' },
		};
		const docs = (data: object[]) =>
			nock(TEST_BASE_URL).get('/api/user/knowledgebases/4/documents').reply(200, { data });
		docs([
			{ id: 1, status: 'active' },
			{ id: 2, status: 'processing' },
		]);
		expect(await node.poll.call(poller(parameters, state))).toBeNull();
		docs([
			{ id: 1, status: 'active' },
			{ id: 2, status: 'processing' },
			{ id: 3, status: 'failed' },
		]);
		expect(json(await node.poll.call(poller(parameters, state)))?.map((d) => d.id)).toEqual([3]);
		docs([
			{ id: 1, status: 'active' },
			{ id: 2, status: 'active' },
			{ id: 3, status: 'failed' },
		]);
		expect(json(await node.poll.call(poller(parameters, state)))?.map((d) => d.id)).toEqual([2]);
		docs([
			{ id: 1, status: 'active' },
			{ id: 2, status: 'active' },
		]);
		expect(await node.poll.call(poller(parameters, state))).toBeNull();
	});
});
