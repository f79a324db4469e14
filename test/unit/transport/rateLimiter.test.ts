import nock from 'nock';

import { ENDPOINT_LIMITS, apiRequest } from '../../../nodes/VoiceChatAssistant/transport';
import {
	SlidingWindowLimiter,
	getLimiter,
} from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

describe('rate limiter', () => {
	const t0 = 1_700_000_000_000;
	const clock = fakeClockPerTest(t0);

	it('lets 5 through at once, spreads the rest of a burst over a fifth of its window, then spaces requests by the 10 s window', () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 20 });
		const starts = Array.from({ length: 45 }, () => limiter.reserve() - t0);
		// 10 s / (20 × 5): one start every 100 ms after the first five
		expect(starts.slice(0, 20)).toEqual([
			0,
			0,
			0,
			0,
			0,
			...Array.from({ length: 15 }, (_, i) => 100 * (i + 1)),
		]);
		// the next window opens as the first one's starts leave it, paced the same way
		expect(starts.slice(20, 40)).toEqual(Array.from({ length: 20 }, (_, i) => 10_000 + 100 * i));
		expect(starts.slice(40, 45)).toEqual(Array.from({ length: 5 }, (_, i) => 20_000 + 100 * i));
	});

	it('holds the steady rate: never more than perMinute in any 60 s, whatever the burst', () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 20 });
		const starts = Array.from({ length: 1000 }, () => limiter.reserve() - t0);
		for (let i = 100; i < starts.length; i++) {
			expect(starts[i] - starts[i - 100]).toBeGreaterThanOrEqual(60_000);
		}
		for (let i = 20; i < starts.length; i++) {
			expect(starts[i] - starts[i - 20]).toBeGreaterThanOrEqual(10_000);
		}
		// 1,000 requests at 100/min: the last starts at the floor of 9 minutes 40 s, plus the
		// pacing of its burst (19 × 100 ms)
		expect(starts[999]).toBe(9 * 60_000 + 40_000 + 19 * 100);
	});

	it('frees budget as time passes', () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 3, burst: 3 });
		expect([limiter.reserve(), limiter.reserve(), limiter.reserve()].map((t) => t - t0)).toEqual([
			0, 0, 0,
		]);
		clock.advance(61_000);
		expect(limiter.reserve() - t0).toBe(61_000);
	});

	it('is shared by two executions that use the same credential, and separate for another credential', async () => {
		const limited = { requestsPerMinute: 100, burst: 2 };
		nock(TEST_BASE_URL).get('/api/user/me').times(5).reply(200, { name: 'A' });
		const first = createContext({
			parameters: {},
			credentials: limited,
			node: { credentials: { voiceChatAssistantApi: { id: 'shared', name: 'A' } } },
		}).context;
		const second = createContext({
			parameters: {},
			credentials: limited,
			node: { credentials: { voiceChatAssistantApi: { id: 'shared', name: 'A' } } },
		}).context;
		const other = createContext({
			parameters: {},
			credentials: limited,
			node: { credentials: { voiceChatAssistantApi: { id: 'other', name: 'B' } } },
		}).context;

		await apiRequest.call(first, 'GET', '/api/user/me');
		await apiRequest.call(second, 'GET', '/api/user/me');
		expect(clock.now() - t0).toBe(0);
		await apiRequest.call(second, 'GET', '/api/user/me');
		// the third request of the shared budget waits for the 10 s window
		expect(clock.now() - t0).toBe(10_000);
		await apiRequest.call(other, 'GET', '/api/user/me');
		await apiRequest.call(other, 'GET', '/api/user/me');
		// the other credential has its own budget: no further wait
		expect(clock.now() - t0).toBe(10_000);
		expect(getLimiter('shared@' + TEST_BASE_URL, { perMinute: 100, burst: 2 })).toBeDefined();
	});

	it('a 429 with retry_after during a burst pauses every request of the credential, then the item succeeds', async () => {
		const ctx = createContext({ parameters: {} }).context;
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/me')
			.reply(200, { n: 1 })
			.get('/api/user/me')
			.reply(429, { message: 'Too Many Attempts.', retry_after: 5 })
			.get('/api/user/me')
			.reply(200, { n: 2 })
			.get('/api/user/me')
			.reply(200, { n: 3 });
		await expect(apiRequest.call(ctx, 'GET', '/api/user/me')).resolves.toEqual({ n: 1 });
		await expect(apiRequest.call(ctx, 'GET', '/api/user/me')).resolves.toEqual({ n: 2 });
		expect(clock.now() - t0).toBe(5_000);
		const limiter = getLimiter('cred-1@' + TEST_BASE_URL, { perMinute: 100, burst: 20 });
		// nothing may start before the pause is over
		expect(limiter.reserve()).toBeGreaterThanOrEqual(t0 + 5_000);
		await expect(apiRequest.call(ctx, 'GET', '/api/user/me')).resolves.toEqual({ n: 3 });
		scope.done();
	});

	it('an endpoint limit (AI replies: 5 per minute) spaces its own requests and leaves the other requests of the credential alone', async () => {
		const ctx = createContext({ parameters: {} }).context;
		nock(TEST_BASE_URL)
			.post('/api/user/ai/generate-reply')
			.times(7)
			.reply(200, { success: true, reply: 'ok' });
		nock(TEST_BASE_URL).get('/api/user/me').reply(200, { name: 'A' });
		const starts: number[] = [];
		for (let i = 0; i < 7; i++) {
			await apiRequest.call(ctx, 'POST', '/api/user/ai/generate-reply', {
				body: {},
				endpointLimit: ENDPOINT_LIMITS.aiReply,
			});
			starts.push(clock.now() - t0);
		}
		// five at once, then the sixth and seventh wait for the minute window
		expect(starts).toEqual([0, 0, 0, 0, 0, 60_000, 60_000]);
		const before = clock.now();
		await apiRequest.call(ctx, 'GET', '/api/user/me');
		expect(clock.now()).toBe(before);
	});

	it('WhatsApp sends: at most 5 in any second', async () => {
		const ctx = createContext({ parameters: {} }).context;
		nock(TEST_BASE_URL).post('/api/user/whatsapp/send').times(11).reply(200, { success: true });
		const starts: number[] = [];
		for (let i = 0; i < 11; i++) {
			await apiRequest.call(ctx, 'POST', '/api/user/whatsapp/send', {
				body: {},
				endpointLimit: ENDPOINT_LIMITS.whatsappSend,
			});
			starts.push(clock.now() - t0);
		}
		// the endpoint's 5 per second, and beyond the first five of the credential's burst its pacing (100 ms)
		expect(starts).toEqual([0, 0, 0, 0, 0, 1_000, 1_100, 1_200, 1_300, 1_400, 2_000]);
	});

	it('keeps the moment a request was answered: a slow answer opens the next window that much later', () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 2 });
		const slow = limiter.grant();
		const fast = limiter.grant();
		expect([slow.at - t0, fast.at - t0]).toEqual([0, 0]);
		clock.advance(10);
		fast.settle();
		clock.advance(290);
		slow.settle();
		// the service may have counted the slow one as late as 300 ms: the window closes 10 s after the earlier of the two answers
		expect(limiter.reserve() - t0).toBe(10_010);
	});

	it('gives back the budget of a request the service refused or never received', () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 2 });
		limiter.grant().settle();
		limiter.grant().refund();
		expect(limiter.reserve() - t0).toBe(0);
		expect(limiter.reserve() - t0).toBe(10_000);
	});

	it('a refused attempt (429) costs no budget: its refunded slot is free for the next request', () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 2 });
		limiter.grant().settle();
		const refused = limiter.grant();
		expect(refused.at).toBe(t0);
		refused.refund();
		expect(limiter.reserve()).toBe(t0);
		// without the refund the window would be full
		expect(limiter.reserve()).toBe(t0 + 10_000);
	});

	it('a caller already waiting when a 429 arrives queues again behind the pause', async () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 1 });
		limiter.grant().settle();
		const waiting = limiter.acquire(); // may start at 10 s
		clock.advance(5_000);
		limiter.pauseUntil(t0 + 12_000);
		const grant = await waiting;
		expect(grant.at).toBeGreaterThanOrEqual(t0 + 12_000);
		expect(clock.now()).toBeGreaterThanOrEqual(t0 + 12_000);
	});
});
