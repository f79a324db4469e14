import type { Clock } from '../../../nodes/VoiceChatAssistant/transport/clock';
import { setClock } from '../../../nodes/VoiceChatAssistant/transport/clock';
import type { Grant } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { SlidingWindowLimiter } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';

/**
 * The limiter checks its windows again when a request really goes. A start is
 * placed from the log as it stood then; a busy process (an n8n worker running
 * several executions) wakes its timers late, and the service counts each
 * request when it arrives. Time here is a timer queue the test moves on;
 * `lateBy` delays every timer, as a busy event loop does.
 */
function manualClock(t0: number, lateBy = 0, arrived: () => void = () => {}) {
	let time = t0;
	const timers: Array<{ at: number; resolve: () => void }> = [];
	const clock: Clock = {
		now: () => time,
		sleep: async (ms: number) =>
			await new Promise<void>((resolve) => timers.push({ at: time + ms + lateBy, resolve })),
		random: () => 0.5,
		// what the event loop reads when a woken caller lets it (the test's answers)
		readArrived: async () => arrived(),
	};
	const flush = async () => {
		for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
	};
	/** Moves time to `until`, firing every timer due on the way (each at its time). */
	const runUntil = async (until: number) => {
		for (;;) {
			await flush();
			timers.sort((a, b) => a.at - b.at);
			if (!timers.length || timers[0].at > until) break;
			const next = timers.shift()!;
			time = Math.max(time, next.at);
			next.resolve();
		}
		time = Math.max(time, until);
		await flush();
	};
	return { clock, runUntil, now: () => time };
}

describe('the limiter checks its windows when a request goes', () => {
	const t0 = 1_700_000_000_000;
	let restore: () => void;
	afterEach(() => restore?.());

	const sentAt = (limiter: SlidingWindowLimiter, clock: { now: () => number }) => {
		const times: number[] = [];
		const grants: Grant[] = [];
		const send = () =>
			limiter.acquire().then((grant) => {
				times.push(clock.now() - t0);
				grants.push(grant);
				return grant;
			});
		return { times, grants, send };
	};

	it('a start placed while the requests a burst before it were on their way waits until their answers are a window old', async () => {
		const c = manualClock(t0);
		restore = setClock(c.clock);
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 2 });
		const s = sentAt(limiter, c);
		const [a, b] = await Promise.all([s.send(), s.send()]);
		// placed now, from the two starts still on their way: 10 s after them
		const third = s.send();
		await c.runUntil(t0 + 300);
		a.settle();
		b.settle();
		await c.runUntil(t0 + 20_000);
		await third;
		// the service may have counted both as late as their answers (300 ms): not before 10.3 s
		expect(s.times).toEqual([0, 0, 10_300]);
	});

	it('a request a busy process sends late keeps the moment it went: the next window opens a window after that', async () => {
		const c = manualClock(t0, 250);
		restore = setClock(c.clock);
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 1 });
		const s = sentAt(limiter, c);
		(await s.send()).settle();
		const second = s.send();
		await c.runUntil(t0 + 11_000);
		const grant = await second;
		// due at 10 s, the timer fired at 10.25 s: the log keeps 10.25 s, not the start it was given
		expect(s.times).toEqual([0, 10_250]);
		expect(grant.at - t0).toBe(10_250);
		expect(limiter.reserve() - t0).toBe(20_250);
	});

	it('a request on its way for longer than a window still holds its place until it is answered', async () => {
		const c = manualClock(t0);
		restore = setClock(c.clock);
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 1 });
		limiter.observeLatency(100);
		const s = sentAt(limiter, c);
		const slow = await s.send();
		const second = s.send();
		// due at 10 s; the slow one still on its way at 12 s: the service may count it at any moment
		await c.runUntil(t0 + 12_000);
		expect(s.times).toEqual([0]);
		slow.settle();
		await c.runUntil(t0 + 30_000);
		await second;
		// then a window after its answer, as for any answered request
		expect(s.times).toEqual([0, 22_000]);
	});

	it('woken late, a caller first lets the answers already here be read: a 429 among them pauses it too', async () => {
		let answers: Array<() => void> = [];
		let reads = 0;
		const c = manualClock(t0, 300, () => {
			reads++;
			for (const answer of answers) answer();
			answers = [];
		});
		restore = setClock(c.clock);
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 20 });
		const s = sentAt(limiter, c);
		const [first] = await Promise.all(Array.from({ length: 5 }, () => s.send()));
		// the sixth start is 100 ms on (the burst's pace); its timer fires 300 ms late, when the
		// service's 429 for the first one has come: the loop reads it before the caller goes on
		const sixth = s.send();
		answers.push(() => {
			first.refund();
			limiter.refused(first, c.now() + 2_000);
		});
		await c.runUntil(t0 + 5_000);
		await sixth;
		expect(reads).toBe(2);
		// it waited for the pause (until 2.4 s; its timer 300 ms late): before, it went at 400 ms, into
		// the full window
		expect(s.times).toEqual([0, 0, 0, 0, 0, 2_700]);
	});

	it('a window whose end adds up to the very moment of the check still moves the request on (no endless check)', async () => {
		// times in virtual time, fractional: 10 s after 1000 + 1/7 ms adds up to a hair less than
		// the window's end, which the check found still inside it
		const first = 1000 + 1 / 7;
		const c = manualClock(first);
		let calls = 0;
		restore = setClock({
			...c.clock,
			now: () => {
				// the check, looping without a wait, would call the clock for ever
				if (++calls > 10_000) throw new Error('the check looped without waiting');
				return c.now();
			},
		});
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 1 });
		(await limiter.acquire()).settle();
		const second = limiter.acquire();
		await c.runUntil(first + 20_000);
		expect((await second).at - first).toBeCloseTo(10_001, 6);
	});

	it('on time, every request goes at its start: the check costs no wait', async () => {
		const c = manualClock(t0);
		restore = setClock(c.clock);
		const limiter = new SlidingWindowLimiter({ perMinute: 100, burst: 20 });
		const reference = new SlidingWindowLimiter({ perMinute: 100, burst: 20 });
		const expected = Array.from({ length: 45 }, () => reference.reserve() - t0);
		const s = sentAt(limiter, c);
		const all = Array.from({ length: 45 }, () => s.send().then((g) => g.settle()));
		await c.runUntil(t0 + 40_000);
		await Promise.all(all);
		expect(s.times).toEqual(expected);
	});
});
