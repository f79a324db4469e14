'use strict';
/**
 * Sliding-window rate limiter with two windows: `perMinute` requests per `windowMs`
 * and `burst` requests per `burstWindowMs`. Only accepted requests count as hits.
 */

const DEFAULT_RATE_LIMIT = { perMinute: 100, burst: 20, burstWindowMs: 10000, windowMs: 60000 };

class RateLimiter {
	/** @param {false|{perMinute, burst, burstWindowMs, windowMs}} config */
	constructor(config) {
		this.hits = [];
		this.configure(config);
	}

	configure(config) {
		this.config = config ? { ...DEFAULT_RATE_LIMIT, ...config } : false;
		this.hits = [];
	}

	reset() {
		this.hits = [];
	}

	windows() {
		const c = this.config;
		return [
			{ limit: c.perMinute, ms: c.windowMs },
			{ limit: c.burst, ms: c.burstWindowMs },
		].filter((w) => w.limit > 0 && w.ms > 0);
	}

	/**
	 * Records a request at `now` if allowed.
	 * @returns {{allowed: boolean, retryAfter?: number, opensInMs?: number, headers: object}}
	 */
	take(now = Date.now()) {
		if (!this.config) return { allowed: true, headers: {} };
		const windows = this.windows();
		const longest = Math.max(0, ...windows.map((w) => w.ms));
		let drop = 0;
		while (drop < this.hits.length && this.hits[drop] <= now - longest) drop++;
		if (drop) this.hits.splice(0, drop);

		let retryMs = 0;
		let remaining = Infinity;
		for (const w of windows) {
			const inside = this.hits.filter((t) => t > now - w.ms);
			if (inside.length >= w.limit) {
				// the request may pass once enough of the oldest hits have left the window
				const expires = inside[inside.length - w.limit] + w.ms;
				retryMs = Math.max(retryMs, expires - now);
			}
			remaining = Math.min(remaining, w.limit - inside.length - 1);
		}
		const headers = { 'X-RateLimit-Limit': String(this.config.perMinute) };
		if (retryMs > 0) {
			const retryAfter = Math.max(1, Math.ceil(retryMs / 1000));
			headers['X-RateLimit-Remaining'] = '0';
			headers['Retry-After'] = String(retryAfter);
			headers['X-RateLimit-Reset'] = String(Math.ceil(now / 1000) + retryAfter);
			// opensInMs: when the window really opens; Retry-After rounds it up to whole seconds
			return { allowed: false, retryAfter, opensInMs: retryMs, headers };
		}
		this.hits.push(now);
		headers['X-RateLimit-Remaining'] = String(Math.max(0, remaining));
		return { allowed: true, headers };
	}
}

module.exports = { RateLimiter, DEFAULT_RATE_LIMIT };
