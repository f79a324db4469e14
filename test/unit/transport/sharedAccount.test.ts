import nock from 'nock';

import { apiRequest } from '../../../nodes/VoiceChatAssistant/transport';
import { setClock } from '../../../nodes/VoiceChatAssistant/transport/clock';
import { SlidingWindowLimiter } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { simulateSharedAccount } = require('../../harness/sharedAccount');

const simulate = (o: Record<string, unknown>) =>
	simulateSharedAccount({ Limiter: SlidingWindowLimiter, setClock, ...o });

describe('adaptive share of the budget', () => {
	const t0 = 1_700_000_000_000;
	const clock = fakeClockPerTest(t0);

	/** A limiter that has let `count` requests through (answered at once). */
	function used(settings: { perMinute: number; burst: number }, count: number) {
		const limiter = new SlidingWindowLimiter(settings);
		const grants = Array.from({ length: count }, () => limiter.grant());
		// the paced starts have come and every request has been answered
		clock.advance(Math.max(0, grants[grants.length - 1].at - clock.now()));
		for (const grant of grants) grant.settle();
		return { limiter, grants };
	}

	/** The service refuses a request of the limiter now (a 429 that asks to wait until `until`). */
	function refuse(limiter: SlidingWindowLimiter, until = clock.now()) {
		const grant = limiter.grant();
		grant.refund();
		limiter.refused(grant, until);
	}

	it('the first 429 halves the whole budget, and the pause the service asks for holds every request until it ends', () => {
		const { limiter } = used({ perMinute: 1000, burst: 200 }, 140);
		refuse(limiter, clock.now() + 9_000);
		expect(limiter.share()).toBe(0.5);
		expect(limiter.limits()).toEqual({ perMinute: 500, burst: 100, burstWindowMs: 10_000 });
		expect(limiter.reserve()).toBeGreaterThanOrEqual(clock.now() + 9_000);
	});

	it('a later 429 cuts a reduced share to the part in use (at most to 90 %, at least to half of it), and only to 90 % when the process used under half of its share', () => {
		// cut once, then a quiet 4 minutes: 0.5 + 0.05 + 0.1 + 0.2 = 0.85
		const { limiter } = used({ perMinute: 1000, burst: 200 }, 2);
		refuse(limiter);
		clock.advance(3 * 60_000);
		expect(limiter.share()).toBeCloseTo(0.85);
		// 120 of the burst of 200 in use (60 %) when the service refused
		const grants = Array.from({ length: 120 }, () => limiter.grant());
		clock.advance(grants[grants.length - 1].at - clock.now() + 20);
		for (const grant of grants) grant.settle();
		refuse(limiter);
		expect(limiter.share()).toBeCloseTo(0.6);
		// nothing in use: crowded out by others rather than crowding, a mild cut to 90 %
		clock.advance(3 * 60_000 + 10_000);
		const before = limiter.share();
		refuse(limiter);
		expect(limiter.share()).toBeCloseTo(before * 0.9);
		// all of its share in use: 90 % of it
		clock.advance(4 * 60_000);
		const again = limiter.share();
		const burst = Array.from({ length: limiter.limits().burst }, () => limiter.grant());
		clock.advance(burst[burst.length - 1].at - clock.now() + 20);
		for (const grant of burst) grant.settle();
		refuse(limiter);
		expect(limiter.share()).toBeCloseTo(again * 0.9, 2);
	});

	it('the 429s of requests sent before the cut count as one congestion; a later one cuts again', () => {
		const { limiter, grants } = used({ perMinute: 1000, burst: 200 }, 100);
		// three requests in flight when the service filled up
		const inFlight = [limiter.grant(), limiter.grant(), limiter.grant()];
		// sent, then all three answered 429
		clock.advance(inFlight[2].at - clock.now() + 20);
		for (const grant of inFlight) {
			grant.refund();
			limiter.refused(grant, clock.now() + 9_000);
		}
		expect(limiter.share()).toBe(0.5);
		expect(grants).toHaveLength(100);
		// a request sent after the cut and refused again: the share is cut once more (to the
		// 100 of 200 in use, capped at 90 % of the half)
		clock.advance(9_000);
		const later = limiter.grant();
		later.refund();
		limiter.refused(later, clock.now() + 1_000);
		expect(limiter.share()).toBeCloseTo(0.45);
	});

	it("the pause of every request is the congestion's first 429's; a later one holds only its own request", () => {
		const { limiter } = used({ perMinute: 1000, burst: 200 }, 2);
		const inFlight = [limiter.grant(), limiter.grant(), limiter.grant()];
		clock.advance(inFlight[2].at - clock.now() + 20);
		// each Retry-After in whole seconds, the later ones up to a second longer than the first
		for (const [i, grant] of inFlight.entries()) {
			grant.refund();
			limiter.refused(grant, clock.now() + 9_000 + 400 * i);
		}
		// (the refused requests themselves wait their own, in sendRequest)
		expect(limiter.reserve() - clock.now()).toBe(9_000);
	});

	it('grows back slowly: 5 % after a quiet minute, then 10, 20, 40 %; a second cut doubles the quiet time', () => {
		const { limiter } = used({ perMinute: 1000, burst: 200 }, 2);
		const refused = limiter.grant();
		refused.refund();
		limiter.refused(refused, t0);
		const at = (minutes: number) => limiter.share(t0 + minutes * 60_000);
		expect([0.5, 0.99, 1, 2, 3, 4].map(at).map((s) => Math.round(s * 100))).toEqual([
			50, 50, 55, 65, 85, 100,
		]);
		// cut again before it was whole: 2 quiet minutes before the first step
		clock.advance(90_000);
		const again = limiter.grant();
		again.refund();
		limiter.refused(again, clock.now());
		const cutAt = clock.now();
		const share = limiter.share(cutAt);
		expect(limiter.share(cutAt + 60_000)).toBe(share);
		expect(limiter.share(cutAt + 120_000)).toBeCloseTo(share + 0.05);
	});

	it('never goes below a sixteenth of the budget, nor below one request per window', () => {
		const limiter = new SlidingWindowLimiter({ perMinute: 10, burst: 2 });
		// refused again and again with nothing in use: halved once, then 90 % at a time
		for (let i = 0; i < 30; i++) {
			clock.advance(1_000);
			const grant = limiter.grant();
			grant.refund();
			limiter.refused(grant, clock.now());
		}
		expect(limiter.share()).toBeCloseTo(1 / 16);
		expect(limiter.limits()).toMatchObject({ perMinute: 1, burst: 1 });
	});

	it('the transport tells the limiter of a 429: the credential then runs at the smaller share', async () => {
		const ctx = createContext({
			parameters: {},
			credentials: { requestsPerMinute: 100, burst: 4 },
		}).context;
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/me')
			.reply(200, { n: 1 })
			.get('/api/user/me')
			.reply(429, { message: 'Too Many Attempts.', retry_after: 2 })
			.get('/api/user/me')
			.times(2)
			.reply(200, { n: 2 });
		await apiRequest.call(ctx, 'GET', '/api/user/me');
		await apiRequest.call(ctx, 'GET', '/api/user/me');
		// the retry waited for retry_after
		expect(clock.now() - t0).toBe(2_000);
		await apiRequest.call(ctx, 'GET', '/api/user/me');
		// one of the burst of 4 was in use at the 429: the share is cut to half (2 per 10 s),
		// so with two requests in the window the next one waits for the first to leave it
		expect(clock.now() - t0).toBe(10_000);
		scope.done();
	});
});

describe('processes sharing one account, simulated in virtual time', () => {
	// the queue layer's scale: the service's limits × 10, 20 ms per request, 5 executions per worker
	const SCALED = { perMinute: 1000, burst: 200, burstWindowMs: 10_000 };

	it('one process: no 429, within 1.1 × the floor (the pacing of bursts)', async () => {
		const r = await simulate({
			processes: 1,
			streams: 5,
			items: 500,
			latencyMs: 20,
			limits: SCALED,
		});
		expect(r).toMatchObject({ stored: 500, refused: 0, requests: 500 });
		expect(r.ratio).toBeLessThanOrEqual(1.1);
	});

	it.each([
		[2, 0, 0.02],
		[2, 700, 0.02],
		// three processes cut twice (halved to 1.5 budgets, then to the part in use); before: 5.5 %
		[3, 0, 0.04],
	])(
		'%i processes (the last one starting %i ms later), each given the whole budget: 429s under %p of the requests, within 1.15 × the floor',
		async (processes, offset, most) => {
			const r = await simulate({
				processes,
				streams: 5,
				items: 500,
				latencyMs: 20,
				limits: SCALED,
				startOffsetsMs: [0, 0, 0].map((o, i) => (i === processes - 1 ? offset : o)),
			});
			expect(r.stored).toBe(500);
			expect(r.refused).toBeGreaterThan(0);
			expect(r.refusedShare).toBeLessThan(most);
			expect(r.ratio).toBeLessThanOrEqual(1.15);
		},
	);
});
