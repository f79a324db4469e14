/**
 * The transport's retries: 429s waited out (retry_after, Retry-After, or a
 * backoff within the attempt and wait budgets), 5xx and connection failures
 * sent again only where nothing can have been done twice, and the requests
 * that spend money or reach a person sent once.
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import { RETRY, apiRequest } from '../../../nodes/VoiceChatAssistant/transport';
import { TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { ctx, expectNoKey, failure, netError } from './transportHelpers';

/** A GET whose first attempt `fails` is sent again and resolves to the second attempt's answer. */
async function expectGetRetried(
	fails: (first: nock.Interceptor) => nock.Scope,
	options: { timeout?: number } = {},
) {
	const scope = fails(nock(TEST_BASE_URL).get('/api/user/me'))
		.get('/api/user/me')
		.reply(200, { name: 'A' });
	await expect(apiRequest.call(ctx(), 'GET', '/api/user/me', options)).resolves.toEqual({
		name: 'A',
	});
	scope.done();
}

describe('transport', () => {
	const clock = fakeClockPerTest();

	describe('429', () => {
		it('waits for retry_after from the body, then succeeds', async () => {
			await expectGetRetried((first) =>
				first.reply(429, { message: 'Too Many Attempts.', retry_after: 7 }),
			);
			expect(clock.sleeps).toContain(7000);
		});

		it('waits for the Retry-After header when the body has none', async () => {
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/lead')
				.reply(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '3' })
				.post('/api/user/lead')
				.reply(200, { message: 'Lead created', data: { id: 2 } });
			await expect(
				apiRequest.call(ctx(), 'POST', '/api/user/lead', { body: { a: 1 } }),
			).resolves.toEqual({ message: 'Lead created', data: { id: 2 } });
			expect(clock.sleeps).toContain(3000);
			scope.done();
		});

		it('without any hint backs off exponentially with jitter, and gives up after the attempt budget', async () => {
			nock(TEST_BASE_URL)
				.get('/api/user/me')
				.times(RETRY.maxAttempts)
				.reply(429, { message: 'Too Many Attempts.' });
			const error = await failure(apiRequest.call(ctx(), 'GET', '/api/user/me'));
			expect(error.message).toBe('Too Many Attempts.');
			expect(error.httpCode).toBe('429');
			// random() = 0.5 → delay = 3/4 of base × 2^(n-1), capped at maxDelayMs
			const expected = Array.from({ length: RETRY.maxAttempts - 1 }, (_, i) =>
				Math.round(Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** i) * 0.75),
			);
			expect(clock.sleeps.filter((ms) => ms > 0)).toEqual(expected);
			expect(nock.isDone()).toBe(true);
		});

		it('stops when the total wait budget would be exceeded', async () => {
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/me')
				.reply(429, { retry_after: RETRY.maxTotalWaitMs / 1000 + 1 });
			const error = await failure(apiRequest.call(ctx(), 'GET', '/api/user/me'));
			expect(error.httpCode).toBe('429');
			expect(clock.sleeps.filter((ms) => ms > 0)).toEqual([]);
			scope.done();
		});
	});

	describe('5xx and connection failures', () => {
		it.each([502, 503, 504])('GET is retried after %i', async (status) => {
			await expectGetRetried((first) => first.reply(status, 'gateway'));
		});

		it('POST is retried after 503 (not applied) but not after 502 or 504 (may have been applied)', async () => {
			const retried = nock(TEST_BASE_URL)
				.post('/api/user/lead')
				.reply(503, {})
				.post('/api/user/lead')
				.reply(200, { data: { id: 1 } });
			await expect(
				apiRequest.call(ctx(), 'POST', '/api/user/lead', { body: { a: 1 } }),
			).resolves.toEqual({ data: { id: 1 } });
			retried.done();
			for (const status of [502, 504]) {
				const once = nock(TEST_BASE_URL).post('/api/user/lead').reply(status, {});
				const error = await failure(
					apiRequest.call(ctx(), 'POST', '/api/user/lead', { body: { a: 1 } }),
				);
				expect(error.httpCode).toBe(String(status));
				once.done();
			}
		});

		it('a connection reset on GET is retried', async () => {
			await expectGetRetried((first) =>
				first.replyWithError(netError('ECONNRESET', 'socket hang up')),
			);
		});

		it('a timeout on GET is retried', async () => {
			// half a second the retry may take on a busy machine (the first attempt waits 2 s for its answer)
			await expectGetRetried((first) => first.delayConnection(2_000).reply(200, { name: 'late' }), {
				timeout: 500,
			});
		});

		it('a timeout on POST is not retried: the lead may have been created', async () => {
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/lead')
				.delayConnection(300)
				.reply(200, { data: { id: 1 } });
			const second = nock(TEST_BASE_URL)
				.post('/api/user/lead')
				.reply(200, { data: { id: 2 } });
			const error = await failure(
				apiRequest.call(ctx(), 'POST', '/api/user/lead', { body: { a: 1 }, timeout: 50 }),
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toMatch(/did not answer within 0\.05 s/);
			expect(error.description).toMatch(/was sent and may have been carried out/);
			expect(error.description).not.toMatch(/base URL/);
			scope.done();
			expect(second.isDone()).toBe(false);
			expectNoKey(error);
		});

		it('a refused connection is retried for POST too (nothing was sent), then reported without the key', async () => {
			nock(TEST_BASE_URL)
				.post('/api/user/lead')
				.times(RETRY.maxAttempts)
				.replyWithError(netError('ECONNREFUSED', 'connect ECONNREFUSED'));
			const error = await failure(
				apiRequest.call(ctx(), 'POST', '/api/user/lead', { body: { a: 1 } }),
			);
			expect(error.message).toContain('could not be reached');
			expect(error.description).toContain(`${RETRY.maxAttempts} attempts`);
			expect(nock.isDone()).toBe(true);
			expectNoKey(error);
		});
	});
});

describe('transport: requests that spend money or reach a person (retry: sendOnce)', () => {
	const clock = fakeClockPerTest();

	it.each([503, 502, 504, 500])('a %s is not sent again', async (status) => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/sms')
			.once()
			.reply(status, { message: 'Service Unavailable' });
		const error = await failure(
			apiRequest.call(ctx(), 'POST', '/api/user/sms', { body: { to: '+1' }, retry: 'sendOnce' }),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(clock.sleeps).toEqual([]);
		scope.done();
	});

	it('a reset connection (the request may have arrived) is not sent again', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/sms')
			.once()
			.replyWithError(netError('ECONNRESET', 'socket hang up'));
		await failure(apiRequest.call(ctx(), 'POST', '/api/user/sms', { body: {}, retry: 'sendOnce' }));
		scope.done();
	});

	it('a 429 (refused, nothing done) is sent again after retry_after', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/sms')
			.reply(429, { message: 'Too Many Attempts.', retry_after: 2 })
			.post('/api/user/sms')
			.reply(200, { message: 'SMS sent successfully', data: { sms_id: 's1' } });
		await expect(
			apiRequest.call(ctx(), 'POST', '/api/user/sms', { body: {}, retry: 'sendOnce' }),
		).resolves.toMatchObject({ data: { sms_id: 's1' } });
		expect(clock.sleeps).toEqual([2_000]);
		scope.done();
	});

	it('{success: false, ...} with HTTP 200 is an error with the service message', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/whatsapp/send')
			.reply(200, { success: false, error: 'Sender not found', error_code: 'SENDER_NOT_FOUND' });
		const error = await failure(
			apiRequest.call(ctx(), 'POST', '/api/user/whatsapp/send', { body: {} }),
		);
		expect(error.message).toContain('Sender not found');
	});
});
