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

/**
 * A client-side limiter shaped like the service's documented limits: at most
 * `perMinute` requests in any minute and at most `burst` in any burst window.
 * It keeps the start times it granted (a sliding log) and hands out the
 * earliest start that keeps both windows within their budget. Each caller's
 * slot is reserved at once, so concurrent callers queue up fairly.
 */
export class SlidingWindowLimiter {
	private grants: number[] = [];

	private blockedUntil = 0;

	constructor(private settings: RateLimitSettings) {}

	configure(settings: RateLimitSettings) {
		this.settings = settings;
	}

	/** Earliest start time for a new request, reserved for the caller. */
	reserve(): number {
		const now = getClock().now();
		const { perMinute, burst } = this.settings;
		const burstWindowMs = this.settings.burstWindowMs ?? DEFAULT_BURST_WINDOW_MS;
		this.grants = this.grants.filter((t) => t > now - MINUTE_MS);
		let start = Math.max(now, this.blockedUntil, this.grants[this.grants.length - 1] ?? 0);
		if (this.grants.length >= perMinute) {
			start = Math.max(start, this.grants[this.grants.length - perMinute] + MINUTE_MS);
		}
		if (this.grants.length >= burst) {
			start = Math.max(start, this.grants[this.grants.length - burst] + burstWindowMs);
		}
		// grants stay sorted: every reservation starts at or after the previous one
		this.grants.push(start);
		return start;
	}

	/** Waits until the caller may send a request. */
	async acquire(): Promise<void> {
		const start = this.reserve();
		const clock = getClock();
		const wait = start - clock.now();
		if (wait > 0) await clock.sleep(wait);
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
