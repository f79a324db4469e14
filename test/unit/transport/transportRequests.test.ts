/**
 * The transport's requests: the credential read once per run, the base URL,
 * the headers and body sent, and the service's errors of its four shapes made
 * into the item's error (never with the key).
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest, normalizeBaseUrl } from '../../../nodes/VoiceChatAssistant/transport';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { ctx, expectNoKey, failure } from './transportHelpers';

describe('transport', () => {
	fakeClockPerTest();

	it('reads the credential once per node run, not once per request', async () => {
		nock(TEST_BASE_URL).get('/api/user/me').times(3).reply(200, { ok: 1 });
		const context = ctx();
		const read = jest.spyOn(context, 'getCredentials');
		for (let i = 0; i < 3; i++) await apiRequest.call(context, 'GET', '/api/user/me');
		expect(read).toHaveBeenCalledTimes(1);
		// another run (another context) reads it again
		const next = ctx();
		const readNext = jest.spyOn(next, 'getCredentials');
		nock(TEST_BASE_URL).get('/api/user/me').reply(200, { ok: 1 });
		await apiRequest.call(next, 'GET', '/api/user/me');
		expect(readNext).toHaveBeenCalledTimes(1);
	});

	describe('base URL', () => {
		it.each([
			['https://app.famulor.de', 'https://app.famulor.de'],
			['https://app.famulor.de/', 'https://app.famulor.de'],
			['https://app.famulor.de/api', 'https://app.famulor.de'],
			['https://app.famulor.de/api/', 'https://app.famulor.de'],
			['  https://white.label.example/sub/api//  ', 'https://white.label.example/sub'],
			['', 'https://app.famulor.de'],
		])('%j becomes %j', (input, expected) => {
			expect(normalizeBaseUrl(input)).toBe(expected);
		});

		it('requests go to the credential base URL with a trailing /api tolerated', async () => {
			const scope = nock('https://white.label.test').get('/api/user/me').reply(200, { name: 'A' });
			await expect(
				apiRequest.call(ctx({ baseUrl: 'https://white.label.test/api/' }), 'GET', '/api/user/me'),
			).resolves.toEqual({ name: 'A' });
			scope.done();
		});
	});

	describe('requests', () => {
		it('sends Accept and Content-Type JSON, the Bearer key, query and JSON body', async () => {
			let seenBody: unknown;
			const scope = nock(TEST_BASE_URL, {
				reqheaders: {
					authorization: `Bearer ${TEST_API_KEY}`,
					accept: 'application/json',
					'content-type': 'application/json',
				},
			})
				.post('/api/user/lead', (body) => {
					seenBody = body;
					return true;
				})
				.query({ a: '1' })
				.reply(200, { message: 'ok', data: { id: 1 } });
			const result = await apiRequest.call(ctx(), 'POST', '/api/user/lead', {
				qs: { a: 1 },
				body: { phone_number: '+4915112345678', campaign_id: 1 },
			});
			expect(result).toEqual({ message: 'ok', data: { id: 1 } });
			expect(seenBody).toEqual({ phone_number: '+4915112345678', campaign_id: 1 });
			scope.done();
		});
	});

	describe('errors of the four shapes', () => {
		it('{error} (knowledgebase and document operations)', async () => {
			nock(TEST_BASE_URL)
				.get('/api/user/knowledgebases/9')
				.reply(404, { error: 'Knowledgebase not found.' });
			const error = await failure(
				apiRequest.call(ctx(), 'GET', '/api/user/knowledgebases/9', { itemIndex: 3 }),
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe('Knowledgebase not found.');
			expect(error.httpCode).toBe('404');
			expect(error.context.itemIndex).toBe(3);
			expectNoKey(error);
		});

		it('{message} (not-found of tools and assistants)', async () => {
			nock(TEST_BASE_URL).get('/api/user/tools/5').reply(404, { message: 'Tool not found' });
			const error = await failure(apiRequest.call(ctx(), 'GET', '/api/user/tools/5'));
			expect(error.message).toBe('Tool not found');
			expect(error.httpCode).toBe('404');
		});

		it('{message, errors} lists every field with its messages', async () => {
			nock(TEST_BASE_URL)
				.post('/api/user/assistant')
				.reply(422, {
					message: 'Validation failed',
					errors: {
						voice_id: ['The voice is not compatible with the engine mode.'],
						speech_speed: ['Must be between 0.7 and 1.2.', 'Must be a number.'],
					},
				});
			const error = await failure(
				apiRequest.call(ctx(), 'POST', '/api/user/assistant', { body: {} }),
			);
			expect(error.message).toBe(
				'Validation failed: voice_id: The voice is not compatible with the engine mode.; speech_speed: Must be between 0.7 and 1.2. Must be a number.',
			);
			expect(error.description).toBe(
				'voice_id: The voice is not compatible with the engine mode.\nspeech_speed: Must be between 0.7 and 1.2. Must be a number.',
			);
			expect(error.httpCode).toBe('422');
		});

		it('{status: false, error} with an error status', async () => {
			nock(TEST_BASE_URL)
				.get('/api/conversations/abc')
				.reply(404, { status: false, error: 'Conversation not found' });
			const error = await failure(apiRequest.call(ctx(), 'GET', '/api/conversations/abc'));
			expect(error.message).toBe('Conversation not found');
		});

		it('{status: false, error} answered with HTTP 200 is an error too', async () => {
			nock(TEST_BASE_URL)
				.post('/api/conversations')
				.reply(200, { status: false, error: 'Insufficient balance. Please top up your account.' });
			const error = await failure(
				apiRequest.call(ctx(), 'POST', '/api/conversations', { body: { assistant_id: 'x' } }),
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe('Insufficient balance. Please top up your account.');
			expect(error.httpCode).toBe('200');
		});

		it('401 carries the service text, a hint, and never the key', async () => {
			nock(TEST_BASE_URL).get('/api/user/me').reply(401, { message: 'Unauthenticated.' });
			const error = await failure(apiRequest.call(ctx(), 'GET', '/api/user/me'));
			expect(error.message).toBe('Unauthenticated.');
			expect(error.description).toContain('Check the API key');
			expectNoKey(error);
		});

		it('an error body that is not JSON gets a status text', async () => {
			nock(TEST_BASE_URL)
				.get('/api/user/me')
				.times(3)
				.reply(500, '<html>oops</html>', { 'Content-Type': 'text/html' });
			const error = await failure(apiRequest.call(ctx(), 'GET', '/api/user/me'));
			expect(error.message).toBe('The service failed to process the request');
			expect(error.httpCode).toBe('500');
		});
	});
});
