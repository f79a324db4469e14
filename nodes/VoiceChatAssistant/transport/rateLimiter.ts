import { getClock } from './clock';

export interface RateLimitSettings {
	/** Requests allowed in any 60 s. */
	perMinute: number;
	/** Requests allowed in any `burstWindowMs`. */
	burst: number;
	burstWindowMs?: number;
}

const MINUTE_MS = 60_000;
const DEFAULT_BURST_WINDOW_MS = 10_000;

/** A start time handed out by the limiter, kept in its log until it leaves the minute window. */
export interface Grant {
	/** When the request may start (ms since epoch). */
	readonly at: number;
	/**
	 * The request got its answer now: the service counted it at some moment
	 * before this, so the log keeps this moment rather than the start. A slow
	 * first request then cannot let the next window open too early.
	 */
	settle(): void;
	/** The service did not count the request (refused with 429, or never reached): its budget is given back. */
	refund(): void;
}

/**
 * A client-side limiter shaped like the service's documented limits: at most
 * `perMinute` requests in any minute and at most `burst` in any burst window.
 * It keeps a log of the requests it let through (a sliding log) and hands out
 * the earliest start that keeps both windows within their budget. Each
 * caller's slot is reserved at once, so concurrent callers queue up fairly.
 */
export class SlidingWindowLimiter {
	/** Times of the requests in the log, ascending. */
	private log: number[] = [];

	private blockedUntil = 0;

	constructor(private settings: RateLimitSettings) {}

	configure(settings: RateLimitSettings) {
		this.settings = settings;
	}

	/** Earliest start time for a new request, reserved for the caller. */
	reserve(): number {
		return this.grant().at;
	}

	/** Reserves the earliest start time and returns its handle. */
	grant(): Grant {
		const now = getClock().now();
		const { perMinute, burst } = this.settings;
		const burstWindowMs = this.settings.burstWindowMs ?? DEFAULT_BURST_WINDOW_MS;
		let expired = 0;
		while (expired < this.log.length && this.log[expired] <= now - MINUTE_MS) expired++;
		if (expired) this.log.splice(0, expired);
		let start = Math.max(now, this.blockedUntil, this.log[this.log.length - 1] ?? 0);
		if (this.log.length >= perMinute) {
			start = Math.max(start, this.log[this.log.length - perMinute] + MINUTE_MS);
		}
		if (this.log.length >= burst) {
			start = Math.max(start, this.log[this.log.length - burst] + burstWindowMs);
		}
		this.log.push(start);
		let logged: number | undefined = start;
		const remove = () => {
			if (logged === undefined) return;
			const index = this.log.lastIndexOf(logged);
			if (index !== -1) this.log.splice(index, 1);
			logged = undefined;
		};
		return {
			at: start,
			settle: () => {
				if (logged === undefined) return;
				const answeredAt = getClock().now();
				if (answeredAt <= logged) return;
				remove();
				this.insert(answeredAt);
				logged = answeredAt;
			},
			refund: remove,
		};
	}

	private insert(time: number) {
		let index = this.log.length;
		while (index > 0 && this.log[index - 1] > time) index--;
		this.log.splice(index, 0, time);
	}

	/** Waits until the caller may send a request; the handle settles or refunds it. */
	async acquire(): Promise<Grant> {
		const clock = getClock();
		let grant = this.grant();
		for (;;) {
			const wait = grant.at - clock.now();
			if (wait > 0) await clock.sleep(wait);
			// a 429 while this caller waited pauses it too: it queues again behind the pause
			if (this.blockedUntil <= grant.at) return grant;
			grant.refund();
			grant = this.grant();
		}
	}

	/**
	 * The service answered 429 and asked to wait: no request with this
	 * credential starts before `until`.
	 */
	pauseUntil(until: number) {
		this.blockedUntil = Math.max(this.blockedUntil, until);
	}
}

const limiters = new Map<string, SlidingWindowLimiter>();

/**
 * The limiter of one credential, shared by every execution in this n8n
 * process (several workflows on one account share one budget).
 */
export function getLimiter(key: string, settings: RateLimitSettings): SlidingWindowLimiter {
	let limiter = limiters.get(key);
	if (!limiter) {
		limiter = new SlidingWindowLimiter(settings);
		limiters.set(key, limiter);
	} else {
		limiter.configure(settings);
	}
	return limiter;
}

/** Forgets every limiter (tests only). */
export function resetLimiters() {
	limiters.clear();
}
