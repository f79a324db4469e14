import nock from 'nock';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';

const run = async (parameters: any) => (await router.call(createContext({ parameters }).context))[0];
const item = (json: unknown) => ({ json, pairedItem: { item: 0 } });
const ASSISTANT = '5f0c2a8e-1b3d-4c5e-8f7a-9b0c1d2e3f4a';
const CONVERSATION = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const history = [{ role: 'assistant', content: 'Hello Ada, how can I help?' }];

describe('Conversation', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Create sends the assistant UUID, type and variables and drops status: true', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/conversations', { assistant_id: ASSISTANT, type: 'test', variables: { customer_name: 'Ada' } })
			.reply(200, { status: true, conversation_id: CONVERSATION, history });
		expect(
			await run({
				resource: 'conversation', operation: 'create', assistantUuid: { __rl: true, mode: 'list', value: ASSISTANT }, type: 'test',
				variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
			}),
		).toEqual([item({ conversation_id: CONVERSATION, history })]);
		scope.done();
	});

	it.each([
		[200, 'Insufficient balance. Please top up your account.'],
		[404, 'Assistant not found'],
	])('Create shows {status: false, error} answered with %i', async (status, error) => {
		nock(TEST_BASE_URL).post('/api/conversations').reply(status, { status: false, error });
		await expect(run({ resource: 'conversation', operation: 'create', assistantUuid: { __rl: true, mode: 'id', value: ASSISTANT }, type: 'widget' })).rejects.toThrow(error);
	});

	it('Create refuses an assistant that is not a UUID', async () => {
		await expect(run({ resource: 'conversation', operation: 'create', assistantUuid: { __rl: true, mode: 'id', value: '12' }, type: 'widget' })).rejects.toThrow(
			'Assistant must be a UUID',
		);
	});

	it('Get returns the history; an unknown one fails with the service text', async () => {
		nock(TEST_BASE_URL).get(`/api/conversations/${CONVERSATION}`).reply(200, { status: true, history }).get(`/api/conversations/${CONVERSATION}`).reply(404, { status: false, error: 'Conversation not found' });
		expect(await run({ resource: 'conversation', operation: 'get', conversationId: CONVERSATION })).toEqual([item({ conversation_id: CONVERSATION, history })]);
		await expect(run({ resource: 'conversation', operation: 'get', conversationId: CONVERSATION })).rejects.toThrow('Conversation not found');
	});

	it('Send Message posts the message', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(`/api/conversations/${CONVERSATION}/messages`, { message: 'When are you open?' })
			.reply(200, { status: true, message: 'From 9 to 17.' });
		expect(await run({ resource: 'conversation', operation: 'sendMessage', conversationId: CONVERSATION, message: 'When are you open?' })).toEqual([
			item({ conversation_id: CONVERSATION, message: 'From 9 to 17.' }),
		]);
		scope.done();
	});

	it('Get Many sends the filters and reads the pages', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/conversations')
			.query({ type: 'widget', assistant_id: '2', date_from: '2026-11-01', date_to: '2026-11-02', per_page: '2', page: '1' })
			.reply(200, { data: [{ id: 'a' }, { id: 'b' }], next_page_url: `${TEST_BASE_URL}/api/user/conversations?page=2` });
		const output = await run({
			resource: 'conversation', operation: 'getMany', returnAll: false, limit: 2,
			filters: { type: 'widget', assistant_id: 2, date_from: '2026-11-01', date_to: '2026-11-02T23:00:00Z' },
		});
		expect(output).toEqual([item({ id: 'a' }), item({ id: 'b' })]);
		scope.done();
	});

	it('Send Message refuses a conversation ID that is not a UUID', async () => {
		await expect(run({ resource: 'conversation', operation: 'sendMessage', conversationId: 'abc', message: 'x' })).rejects.toThrow('Conversation ID must be a UUID');
	});
});
