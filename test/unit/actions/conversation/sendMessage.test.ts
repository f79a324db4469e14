import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

const CONVERSATION = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const CONVERSATION_UUID = '5a1d0c3e-2b4f-4e6a-8c9d-0e1f2a3b4c5d';
const sendMessage = (conversationId: string, message: string) => ({
	resource: 'conversation',
	operation: 'sendMessage',
	conversationId,
	message,
});

describe('Conversation', () => {
	it.each([
		[
			'Send Message posts the message',
			CONVERSATION,
			'When are you open?',
			{ status: true, message: 'From 9 to 17.' },
			{ conversation_id: CONVERSATION, message: 'From 9 to 17.' },
		],
		[
			'Send Message posts {message} and outputs the reply without status',
			CONVERSATION_UUID,
			'Can I book a slot?',
			{ status: true, message: 'Sure, tomorrow at 10.', function_calls: [] },
			{ conversation_id: CONVERSATION_UUID, message: 'Sure, tomorrow at 10.', function_calls: [] },
		],
	])('%s', async (_title, conversationId, message, reply, output) => {
		const scope = nock(TEST_BASE_URL)
			.post(`/api/conversations/${conversationId}/messages`, { message })
			.reply(200, reply);
		expect(await run(sendMessage(conversationId, message))).toEqual(items([output]));
		scope.done();
	});

	it.each([
		['abc', 'x'],
		['17', 'hi'],
	])(
		'Send Message refuses a conversation ID that is not a UUID',
		async (conversationId, message) => {
			await expect(run(sendMessage(conversationId, message))).rejects.toThrow(
				'Conversation ID must be a UUID',
			);
		},
	);
});
