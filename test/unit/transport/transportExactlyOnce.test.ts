/**
 * The transport's honest messages and natural keys: what a failure says about
 * whether the request reached the service, what is sent again after an answer
 * was lost, and what a lost answer to a delete or a send-once request means.
 */
import nock from 'nock';

import { RETRY, apiRequest } from '../../../nodes/VoiceChatAssistant/transport';
import {
	GONE_AFTER_LOST_ANSWER,
	sendRequest,
} from '../../../nodes/VoiceChatAssistant/transport/request';
import { TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { ctx, failure, netError } from './transportHelpers';

describe('transport: honest messages and natural keys (exactly once)', () => {
	const clock = fakeClockPerTest();

	it('a connection that broke after the request was sent never says "could not be reached" nor "check the base URL"', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/knowledgebases')
			.replyWithError(netError('ECONNRESET', 'socket hang up'));
		const error = await failure(
			apiRequest.call(ctx(), 'POST', '/api/user/knowledgebases', { body: { name: 'A' } }),
		);
		expect(error.message).toBe('The connection broke after the request was sent (ECONNRESET)');
		expect(error.description).toContain('may have been carried out');
		expect(`${error.message} ${error.description}`).not.toMatch(/could not be reached|base URL/);
	});

	it('"check the base URL" appears only when nothing reached the service', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/me')
			.times(RETRY.maxAttempts)
			.replyWithError(netError('ENOTFOUND', 'getaddrinfo ENOTFOUND'));
		const error = await failure(apiRequest.call(ctx(), 'GET', '/api/user/me'));
		expect(error.message).toBe('The service could not be reached (ENOTFOUND)');
		expect(error.description).toContain('Check the base URL');
	});

	it('a request with a natural key is sent again after a 500, a 502 and a reset, and says that the outcome of an earlier attempt is unknown', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.reply(500, { message: 'Server Error' })
			.post('/api/user/lead')
			.reply(502, 'Bad Gateway')
			.post('/api/user/lead')
			.replyWithError(netError('ECONNRESET', 'socket hang up'))
			.post('/api/user/lead')
			.reply(200, { data: { id: 9 } });
		await expect(
			sendRequest(ctx(), 'POST', '/api/user/lead', { body: {}, retry: 'naturalKey' }),
		).resolves.toEqual({ body: { data: { id: 9 } }, unknownOutcome: true });
		scope.done();
	});

	it('a read, an update and a delete are sent again after a 500 at most twice: a third 500 is the item`s error', async () => {
		for (const method of ['GET', 'PUT', 'DELETE'] as const) {
			const scope = nock(TEST_BASE_URL)
				.intercept('/api/user/leads/5', method)
				.times(3)
				.reply(500, { message: 'Server Error' });
			const error = await failure(apiRequest.call(ctx(), method, '/api/user/leads/5'));
			expect(error.message).toBe('Server Error');
			scope.done();
			expect(nock.pendingMocks()).toEqual([]);
		}
		nock(TEST_BASE_URL)
			.get('/api/user/me')
			.reply(500, { message: 'Server Error' })
			.get('/api/user/me')
			.reply(200, { data: { name: 'Ann' } });
		await expect(apiRequest.call(ctx(), 'GET', '/api/user/me')).resolves.toEqual({
			data: { name: 'Ann' },
		});
	});

	it('a delete whose answer was lost (a 502, a reset) and whose resend finds nothing (404) is done: the first attempt deleted it', async () => {
		for (const lose of [
			(i: nock.Interceptor) => i.reply(502, 'Bad Gateway'),
			(i: nock.Interceptor) => i.replyWithError(netError('ECONNRESET', 'socket hang up')),
		]) {
			lose(nock(TEST_BASE_URL).delete('/api/user/leads/5'));
			nock(TEST_BASE_URL).delete('/api/user/leads/5').reply(404, { message: 'Lead not found' });
			await expect(apiRequest.call(ctx(), 'DELETE', '/api/user/leads/5')).resolves.toEqual({
				message: GONE_AFTER_LOST_ANSWER,
			});
			expect(nock.pendingMocks()).toEqual([]);
		}
		// a 404 to the first attempt, or after a 503 (nothing done), stays the service's error
		for (const before of [[], [503]]) {
			const scope = nock(TEST_BASE_URL);
			for (const status of before)
				scope.delete('/api/user/leads/6').reply(status, { message: 'Service Unavailable' });
			scope.delete('/api/user/leads/6').reply(404, { message: 'Lead not found' });
			expect((await failure(apiRequest.call(ctx(), 'DELETE', '/api/user/leads/6'))).message).toBe(
				'Lead not found',
			);
		}
	});

	it('a 503 before anything was stored is no unknown outcome', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.reply(503, { message: 'Service Unavailable' })
			.post('/api/user/lead')
			.reply(200, { data: { id: 9 } });
		await expect(
			sendRequest(ctx(), 'POST', '/api/user/lead', { body: {}, retry: 'naturalKey' }),
		).resolves.toEqual({ body: { data: { id: 9 } }, unknownOutcome: false });
	});

	it('a send-once request whose answer was lost says what to check before retrying', async () => {
		nock(TEST_BASE_URL).post('/api/user/make_call').reply(502, 'Bad Gateway');
		const error = await failure(
			apiRequest.call(ctx(), 'POST', '/api/user/make_call', {
				body: {},
				retry: 'sendOnce',
				checkBeforeRetry: 'look for the call in Call → Get Many',
			}),
		);
		expect(error.description).toContain(
			'The request was sent and may have been carried out; look for the call in Call → Get Many before running it again.',
		);
		expect(clock.sleeps).toEqual([]);
	});
});
