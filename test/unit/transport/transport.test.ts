import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import {
	PAGES_IN_FLIGHT,
	RETRY,
	apiRequest,
	apiRequestAllItems,
	normalizeBaseUrl,
} from '../../../nodes/VoiceChatAssistant/transport';
import {
	GONE_AFTER_LOST_ANSWER,
	sendRequest,
} from '../../../nodes/VoiceChatAssistant/transport/request';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

function netError(code: string, message: string) {
	return Object.assign(new Error(message), { code });
}

function ctx(credentials = {}) {
	return createContext({ parameters: {}, credentials }).context;
}

async function failure(promise: Promise<unknown>): Promise<NodeApiError> {
	try {
		await promise;
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('expected the request to fail');
}

function expectNoKey(error: unknown) {
	const seen = new WeakSet();
	const text = JSON.stringify(error, (_key, value) => {
		if (value && typeof value === 'object') {
			if (seen.has(value)) return undefined;
			seen.add(value);
		}
		return value;
	});
	expect(
		`${text} ${(error as Error).message} ${(error as NodeApiError).description ?? ''} ${(error as Error).stack}`,
	).not.toContain(TEST_API_KEY);
}

describe('transport', () => {
	const clock = fakeClockPerTest();

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

	describe('429', () => {
		it('waits for retry_after from the body, then succeeds', async () => {
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/me')
				.reply(429, { message: 'Too Many Attempts.', retry_after: 7 })
				.get('/api/user/me')
				.reply(200, { name: 'A' });
			await expect(apiRequest.call(ctx(), 'GET', '/api/user/me')).resolves.toEqual({ name: 'A' });
			expect(clock.sleeps).toContain(7000);
			scope.done();
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
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/me')
				.reply(status, 'gateway')
				.get('/api/user/me')
				.reply(200, { name: 'A' });
			await expect(apiRequest.call(ctx(), 'GET', '/api/user/me')).resolves.toEqual({ name: 'A' });
			scope.done();
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
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/me')
				.replyWithError(netError('ECONNRESET', 'socket hang up'))
				.get('/api/user/me')
				.reply(200, { name: 'A' });
			await expect(apiRequest.call(ctx(), 'GET', '/api/user/me')).resolves.toEqual({ name: 'A' });
			scope.done();
		});

		it('a timeout on GET is retried', async () => {
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/me')
				.delayConnection(300)
				.reply(200, { name: 'late' })
				.get('/api/user/me')
				.reply(200, { name: 'A' });
			await expect(apiRequest.call(ctx(), 'GET', '/api/user/me', { timeout: 50 })).resolves.toEqual(
				{ name: 'A' },
			);
			scope.done();
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

	describe('paginator', () => {
		const page = (n: number, last: number, size: number, perPage: number) => ({
			current_page: n,
			data: Array.from({ length: size }, (_, i) => ({ id: (n - 1) * perPage + i + 1 })),
			next_page_url: n < last ? `https://elsewhere.example/api/user/calls?page=${n + 1}` : null,
			last_page: last,
			per_page: perPage,
			total: (last - 1) * perPage + size,
		});

		it('Return All reads every page with per_page 100, on the credential host, until next_page_url is null', async () => {
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ status: 'completed', per_page: '100', page: '1' })
				.reply(200, page(1, 3, 100, 100))
				.get('/api/user/calls')
				.query({ status: 'completed', per_page: '100', page: '2' })
				.reply(200, page(2, 3, 100, 100))
				.get('/api/user/calls')
				.query({ status: 'completed', per_page: '100', page: '3' })
				.reply(200, page(3, 3, 50, 100));
			const all = await apiRequestAllItems.call(
				ctx(),
				'/api/user/calls',
				{ status: 'completed' },
				undefined,
			);
			expect(all).toHaveLength(250);
			expect(all[249]).toEqual({ id: 250 });
			scope.done();
		});

		it('Return All reads the pages after the first a few at a time and keeps them in page order', async () => {
			let inFlight = 0;
			let most = 0;
			const scope = nock(TEST_BASE_URL);
			for (let n = 1; n <= 6; n++) {
				scope
					.get('/api/user/calls')
					.query({ per_page: '100', page: String(n) })
					// later pages answer sooner, so arrival order differs from page order
					.reply((_uri, _body, callback) => {
						inFlight++;
						most = Math.max(most, inFlight);
						setTimeout(
							() => {
								inFlight--;
								callback(null, [200, page(n, 6, n === 6 ? 10 : 100, 100)]);
							},
							60 - n * 8,
						);
					});
			}
			const all = (await apiRequestAllItems.call(
				ctx(),
				'/api/user/calls',
				{},
				undefined,
			)) as Array<{ id: number }>;
			expect(all.map((c) => c.id)).toEqual(Array.from({ length: 510 }, (_, i) => i + 1));
			expect(most).toBeGreaterThan(1);
			expect(most).toBeLessThanOrEqual(PAGES_IN_FLIGHT);
			scope.done();
		});

		it('Return All goes on page by page when the list grew while it was read', async () => {
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ per_page: '100', page: '1' })
				.reply(200, page(1, 2, 100, 100))
				.get('/api/user/calls')
				.query({ per_page: '100', page: '2' })
				.reply(200, page(2, 3, 100, 100))
				.get('/api/user/calls')
				.query({ per_page: '100', page: '3' })
				.reply(200, page(3, 3, 1, 100));
			const all = await apiRequestAllItems.call(ctx(), '/api/user/calls', {}, undefined);
			expect(all).toHaveLength(201);
			scope.done();
		});

		it('Return All fails with the service message when a later page fails', async () => {
			nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ per_page: '100', page: '1' })
				.reply(200, page(1, 3, 100, 100))
				.get('/api/user/calls')
				.query({ per_page: '100', page: '2' })
				.reply(200, page(2, 3, 100, 100))
				.get('/api/user/calls')
				.query({ per_page: '100', page: '3' })
				.reply(403, { message: 'This action is unauthorized.' });
			const error = await failure(apiRequestAllItems.call(ctx(), '/api/user/calls', {}, undefined));
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toContain('This action is unauthorized.');
		});

		it('Limit stops as soon as it has enough', async () => {
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ per_page: '30', page: '1' })
				.reply(200, page(1, 9, 30, 30));
			const some = (await apiRequestAllItems.call(ctx(), '/api/user/calls', {}, 30)) as Array<{
				id: number;
			}>;
			expect(some.map((c) => c.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
			scope.done();
		});

		it('Limit over 100 reads pages of 100 and cuts the last', async () => {
			const scope = nock(TEST_BASE_URL)
				.get('/api/user/calls')
				.query({ per_page: '100', page: '1' })
				.reply(200, page(1, 3, 100, 100))
				.get('/api/user/calls')
				.query({ per_page: '100', page: '2' })
				.reply(200, page(2, 3, 100, 100));
			const some = await apiRequestAllItems.call(ctx(), '/api/user/calls', {}, 150);
			expect(some).toHaveLength(150);
			scope.done();
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
		nock(TEST_BASE_URL).delete('/api/user/leads/6').reply(404, { message: 'Lead not found' });
		expect((await failure(apiRequest.call(ctx(), 'DELETE', '/api/user/leads/6'))).message).toBe(
			'Lead not found',
		);
		nock(TEST_BASE_URL)
			.delete('/api/user/leads/6')
			.reply(503, { message: 'Service Unavailable' })
			.delete('/api/user/leads/6')
			.reply(404, { message: 'Lead not found' });
		expect((await failure(apiRequest.call(ctx(), 'DELETE', '/api/user/leads/6'))).message).toBe(
			'Lead not found',
		);
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
