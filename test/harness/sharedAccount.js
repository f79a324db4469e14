'use strict';
/**
 * Several n8n processes (a main and queue-mode workers) sharing one account,
 * simulated in virtual time: each process has its own rate limiter (the
 * node's `SlidingWindowLimiter`), each runs `streams` executions that send
 * their items one after the other, and the service is the simulator's
 * sliding-window limiter. A 429 is handled as the node's transport handles
 * it: the slot is refunded, the limiter is told (`refused`), and the request
 * is sent again after `retry_after`.
 *
 * Used by the unit layer (test/unit/transport/sharedAccount.test.ts) and by
 * `bench/shared-budget.js`, which runs it at the service's real limits.
 */
const { RateLimiter } = require('../simulator/ratelimit');

/** The earliest the n-th request may start under both windows of the account, plus one answer. */
function floorMs(n, limits, latencyMs) {
	const starts = [];
	for (let i = 0; i < n; i++) {
		let t = starts.length ? starts[starts.length - 1] : 0;
		if (starts.length >= limits.perMinute)
			t = Math.max(t, starts[starts.length - limits.perMinute] + 60_000);
		if (starts.length >= limits.burst)
			t = Math.max(t, starts[starts.length - limits.burst] + limits.burstWindowMs);
		starts.push(t);
	}
	return starts[n - 1] + latencyMs;
}

/**
 * @param {object} o
 * @param {Function} o.Limiter the limiter class (from the sources or from dist)
 * @param {Function} o.setClock the transport's clock setter of the same build
 * @param {number} o.processes
 * @param {number} o.streams executions in flight per process, one request each
 * @param {number} o.items items in all, split evenly over processes and streams
 * @param {number} o.latencyMs time of one request (half to the service, half back)
 * @param {{perMinute:number, burst:number, burstWindowMs:number}} o.limits the account's limits
 * @param {{perMinute:number, burst:number}} [o.credential] the credential's settings (default: the account's limits)
 * @param {number[]} [o.startOffsetsMs] when each process starts (default: all at 0)
 */
async function simulateSharedAccount(o) {
	const limits = { burstWindowMs: 10_000, ...o.limits };
	const credential = o.credential ?? { perMinute: limits.perMinute, burst: limits.burst };
	let time = 0;
	let seq = 0;
	const timers = [];
	const clock = {
		now: () => time,
		sleep: (ms) =>
			new Promise((resolve) => {
				timers.push({ at: time + Math.max(0, ms), seq: seq++, resolve });
			}),
		random: () => 0.5,
	};
	const restore = o.setClock(clock);
	const service = new RateLimiter({ ...limits, windowMs: 60_000 });
	const log = [];
	const perProcess = Array.from({ length: o.processes }, () => ({ sent: 0, refused: 0 }));
	let done = 0;
	const streamsInAll = o.processes * o.streams;
	const itemsPerStream = Math.ceil(o.items / streamsInAll);
	let left = o.items;

	const runStream = async (p, limiter, count) => {
		for (let item = 0; item < count; item++) {
			for (;;) {
				const grant = await limiter.acquire();
				await clock.sleep(o.latencyMs / 2);
				const answer = service.take(time);
				await clock.sleep(o.latencyMs / 2);
				perProcess[p].sent++;
				log.push({ at: time, process: p, status: answer.allowed ? 200 : 429 });
				if (answer.allowed) {
					grant.settle();
					break;
				}
				perProcess[p].refused++;
				grant.refund();
				const delay = answer.retryAfter * 1000;
				// a limiter without an adaptive share (an earlier version) only pauses
				if (limiter.refused) limiter.refused(grant, time + delay);
				else limiter.pauseUntil(time + delay);
				await clock.sleep(delay);
			}
		}
		done++;
	};

	try {
		const runs = [];
		for (let p = 0; p < o.processes; p++) {
			const limiter = new o.Limiter({ ...credential, burstWindowMs: limits.burstWindowMs });
			const offset = o.startOffsetsMs?.[p] ?? 0;
			for (let s = 0; s < o.streams; s++) {
				const count = Math.min(itemsPerStream, left);
				left -= count;
				runs.push(
					(async () => {
						if (offset) await clock.sleep(offset);
						await runStream(p, limiter, count);
					})(),
				);
			}
		}
		for (;;) {
			// let every continuation run before time moves on
			for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
			if (done === streamsInAll) break;
			if (!timers.length) throw new Error('simulation stalled');
			timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = timers.shift();
			time = next.at;
			next.resolve();
		}
		await Promise.all(runs);
	} finally {
		restore();
	}
	const requests = log.length;
	const refused = log.filter((e) => e.status === 429).length;
	const wallMs = Math.max(...log.map((e) => e.at));
	const floor = floorMs(o.items, limits, o.latencyMs);
	return {
		items: o.items,
		stored: log.filter((e) => e.status === 200).length,
		requests,
		refused,
		refusedShare: refused / requests,
		wallMs,
		floorMs: floor,
		ratio: wallMs / floor,
		perProcess,
		log,
	};
}

module.exports = { simulateSharedAccount, floorMs };
