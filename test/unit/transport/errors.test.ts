import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/VoiceChatAssistant/transport';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../helpers/context';
import { router } from '../../../nodes/VoiceChatAssistant/actions/router';

/** errors.ts: the service's error shapes fail the request also when they come with HTTP 200. */
describe('transport: error answers with HTTP 200', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());
	const ctx = () => createContext({ parameters: {} }).context;

	it.each([
		[
			'{status: false, error}',
			{ status: false, error: 'Conversation not found' },
			'Conversation not found',
			'404',
		],
		['{error}', { error: 'Knowledgebase not found.' }, 'Knowledgebase not found.', '404'],
		[
			'{error} (not a not-found)',
			{ error: 'Failed to create document. Please try again.' },
			'Failed to create document. Please try again.',
			'200',
		],
		[
			'{message, errors}',
			{ message: 'The given data was invalid.', errors: { name: ['The name field is required.'] } },
			'The given data was invalid.: name: The name field is required.',
			'422',
		],
		['a not-found {message} without data', { message: 'Tool not found' }, 'Tool not found', '404'],
	])('%s is a NodeApiError with the service message', async (_shape, body, message, httpCode) => {
		nock(TEST_BASE_URL).get('/api/user/tools/9').reply(200, body);
		const error = await apiRequest.call(ctx(), 'GET', '/api/user/tools/9').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toBe(message);
		expect((error as NodeApiError).httpCode).toBe(httpCode);
		expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
	});

	it.each([
		['a delete message', { message: 'Assistant deleted successfully' }],
		['{message, data}', { message: 'Lead created', data: { id: 1 } }],
		['a record with a message of not found in its data', { data: { message: 'not found' } }],
		['a bare array', [{ id: 1 }]],
	])('%s is a success', async (_what, body) => {
		nock(TEST_BASE_URL).get('/api/user/tools/9').reply(200, body);
		await expect(apiRequest.call(ctx(), 'GET', '/api/user/tools/9')).resolves.toEqual(body);
	});

	it('with Continue On Fail, an HTTP 200 error answer becomes the error item of its input, for any operation', async () => {
		nock(TEST_BASE_URL).get('/api/user/tools/9').reply(200, { message: 'Tool not found' });
		const { context } = createContext({
			parameters: {
				resource: 'tool',
				operation: 'get',
				toolId: { __rl: true, mode: 'id', value: '9' },
			},
			continueOnFail: true,
		});
		const [output] = await router.call(context);
		expect(output).toEqual([
			{
				json: expect.objectContaining({ error: 'Tool not found', httpCode: '404' }),
				pairedItem: { item: 0 },
			},
		]);
	});
});
