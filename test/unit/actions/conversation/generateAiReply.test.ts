/** Conversation → Generate AI Reply: POST /api/user/ai/generate-reply, the old path only for a missing route. */
import nock from 'nock';

import { resetAiReplyPaths } from '../../../../nodes/VoiceChatAssistant/actions/conversation/generateAiReply.operation';
import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { installFakeClock } from '../../../helpers/fakeClock';
import { item, rl, run } from '../helpers';

const NEW = '/api/user/ai/generate-reply';
const OLD = '/api/ai/generate-reply';
const answer = {
	success: true,
	conversation_id: '5a1d0c3e-2b4f-4e6a-8c9d-0e1f2a3b4c5d',
	customer_identifier: '+4915112345678',
	reply: 'Hello Ada!',
	function_calls: [],
	ai_disabled: false,
};
const { success: _success, ...output } = answer;
const base = {
	resource: 'conversation',
	operation: 'generateAiReply',
	assistantId: rl('3'),
	customerIdentifier: '+4915112345678',
	message: 'Hi, is my order shipped?',
};

describe('Conversation: Generate AI Reply', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
		resetAiReplyPaths();
	});
	afterEach(() => nock.cleanAll());

	it.each([
		[
			'posts assistant, customer and message to the documented path; outputs the reply',
			{},
			{ customer_identifier: '+4915112345678', message: 'Hi, is my order shipped?' },
		],
		[
			'sends the variables (pairs and JSON merged)',
			{
				customerIdentifier: ' chat-42 ',
				message: 'Hi',
				variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
				variablesJson: '{"plan":"gold"}',
			},
			{
				customer_identifier: 'chat-42',
				message: 'Hi',
				variables: { customer_name: 'Ada', plan: 'gold' },
			},
		],
	])('%s', async (_title, parameters, body) => {
		const scope = nock(TEST_BASE_URL)
			.post(NEW, { assistant_id: 3, ...body })
			.reply(200, answer);
		expect(await run({ ...base, ...parameters })).toEqual([item(output)]);
		scope.done();
	});

	it('the service JSON 404 ASSISTANT_NOT_FOUND is reported, not asked on the old path', async () => {
		const scope = nock(TEST_BASE_URL).post(NEW).once().reply(404, {
			success: false,
			error: 'Assistant not found or does not belong to you',
			error_code: 'ASSISTANT_NOT_FOUND',
		});
		await expect(run(base)).rejects.toThrow('Assistant not found or does not belong to you');
		scope.done();
	});

	it('a missing route (404 without the service error) is asked once on the old path, which is then used first', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(NEW)
			.reply(404, { message: 'The route api/user/ai/generate-reply could not be found.' })
			.post(OLD, {
				assistant_id: 3,
				customer_identifier: '+4915112345678',
				message: 'Hi, is my order shipped?',
			})
			.reply(200, answer)
			.post(OLD)
			.reply(200, answer);
		expect(await run(base)).toEqual([item(output)]);
		expect(await run(base)).toEqual([item(output)]);
		scope.done();
	});

	it('an HTML 404 of both paths fails with the 404 of the old path', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(NEW)
			.reply(404, '<html>Not Found</html>')
			.post(OLD)
			.reply(404, '<html>Not Found</html>');
		await expect(run(base)).rejects.toThrow('Not found');
		scope.done();
	});

	it.each([
		[{ customerIdentifier: '  ' }, 'Customer Identifier is required'],
		[
			{ customerIdentifier: 'c'.repeat(256) },
			'Customer Identifier is too long: 256 characters, at most 255 are allowed',
		],
		[{ message: '' }, 'Message is required'],
		[{ assistantId: rl('abc', 'id') }, 'Assistant must be a positive whole number'],
		[{ variablesJson: 'not json' }, 'Variables (JSON) must be a JSON object'],
	])('refuses %j before sending', async (change, message) => {
		const scope = nock(TEST_BASE_URL).post(NEW).reply(200, answer);
		await expect(run({ ...base, ...change })).rejects.toThrow(message);
		expect(scope.isDone()).toBe(false);
	});

	it('422 and 402 come with the service text', async () => {
		nock(TEST_BASE_URL)
			.post(NEW)
			.reply(422, {
				message: 'The message field is required.',
				errors: { message: ['The message field is required.'] },
			})
			.post(NEW)
			.reply(402, {
				success: false,
				error: 'Insufficient balance',
				error_code: 'INSUFFICIENT_BALANCE',
			});
		await expect(run(base)).rejects.toThrow('The message field is required.');
		await expect(run(base)).rejects.toThrow('Insufficient balance');
	});

	it('a sixth reply within a minute waits for the endpoint limit of 5 per minute', async () => {
		const clock = installFakeClock();
		try {
			const scope = nock(TEST_BASE_URL).post(NEW).times(6).reply(200, answer);
			for (let i = 0; i < 6; i++) await run(base);
			expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(59_000);
			scope.done();
		} finally {
			clock.restore();
		}
	});
});
