import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, run } from '../helpers';

const CONVERSATION = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const history = [{ role: 'assistant', content: 'Hello Ada, how can I help?' }];
const CONVERSATION_UUID = '5a1d0c3e-2b4f-4e6a-8c9d-0e1f2a3b4c5d';

describe('Conversation', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Get returns the history; an unknown one fails with the service text', async () => {
		nock(TEST_BASE_URL)
			.get(`/api/conversations/${CONVERSATION}`)
			.reply(200, { status: true, history })
			.get(`/api/conversations/${CONVERSATION}`)
			.reply(404, { status: false, error: 'Conversation not found' });
		expect(
			await run({ resource: 'conversation', operation: 'get', conversationId: CONVERSATION }),
		).toEqual([item({ conversation_id: CONVERSATION, history })]);
		await expect(
			run({ resource: 'conversation', operation: 'get', conversationId: CONVERSATION }),
		).rejects.toThrow('Conversation not found');
	});
});

describe('Conversation', () => {
	const history = [{ role: 'assistant', content: 'Hello!' }];

	it('Get reads GET /api/conversations/{uuid}', async () => {
		const scope = nock(TEST_BASE_URL)
			.get(`/api/conversations/${CONVERSATION_UUID}`)
			.reply(200, { status: true, history });
		expect(
			await run({ resource: 'conversation', operation: 'get', conversationId: CONVERSATION_UUID }),
		).toEqual(items([{ conversation_id: CONVERSATION_UUID, history }]));
		scope.done();
	});
});
