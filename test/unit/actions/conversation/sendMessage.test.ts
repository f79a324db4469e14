import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, run } from '../helpers';

const CONVERSATION = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const CONVERSATION_UUID = '5a1d0c3e-2b4f-4e6a-8c9d-0e1f2a3b4c5d';

describe('Conversation', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Send Message posts the message', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(`/api/conversations/${CONVERSATION}/messages`, { message: 'When are you open?' })
			.reply(200, { status: true, message: 'From 9 to 17.' });
		expect(
			await run({
				resource: 'conversation',
				operation: 'sendMessage',
				conversationId: CONVERSATION,
				message: 'When are you open?',
			}),
		).toEqual([item({ conversation_id: CONVERSATION, message: 'From 9 to 17.' })]);
		scope.done();
	});

	it('Send Message refuses a conversation ID that is not a UUID', async () => {
		await expect(
			run({
				resource: 'conversation',
				operation: 'sendMessage',
				conversationId: 'abc',
				message: 'x',
			}),
		).rejects.toThrow('Conversation ID must be a UUID');
	});
});

describe('Conversation', () => {
	it('Send Message posts {message} and outputs the reply without status', async () => {
		const reply = { status: true, message: 'Sure, tomorrow at 10.', function_calls: [] };
		const scope = nock(TEST_BASE_URL)
			.post(`/api/conversations/${CONVERSATION_UUID}/messages`, { message: 'Can I book a slot?' })
			.reply(200, reply);
		expect(
			await run({
				resource: 'conversation',
				operation: 'sendMessage',
				conversationId: CONVERSATION_UUID,
				message: 'Can I book a slot?',
			}),
		).toEqual(
			items([
				{
					conversation_id: CONVERSATION_UUID,
					message: 'Sure, tomorrow at 10.',
					function_calls: [],
				},
			]),
		);
		scope.done();
	});

	it('Send Message refuses a conversation ID that is not a UUID', async () => {
		await expect(
			run({
				resource: 'conversation',
				operation: 'sendMessage',
				conversationId: '17',
				message: 'hi',
			}),
		).rejects.toThrow('Conversation ID must be a UUID');
	});
});
