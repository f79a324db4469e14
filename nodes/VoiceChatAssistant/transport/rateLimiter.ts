import { AdaptiveShare, DEEPEST_CUT, MINUTE_MS } from './adaptiveShare';
import { getClock } from './clock';

export interface RateLimitSettings {
	/** Requests allowed in any 60 s. */
	perMinute: number;
	/** Requests allowed in any `burstWindowMs`. */
	burst: number;
	burstWindowMs?: number;
}

/** An endpoint's own rate limit, as documented by the service. */
export interface EndpointLimit {
	/** Name of the limit; endpoints that share a limit share a name. */
	name: string;
	/** Requests allowed in any minute. */
	perMinute: number;
	/** Requests allowed in any `burstWindowMs`. */
	burst: number;
	burstWindowMs: number;
}

/** The endpoint limits the service documents. */
export const ENDPOINT_LIMITS = {
	/** Generate AI Reply: 5 requests per minute per token. */
	aiReply: { name: 'ai-reply', perMinute: 5, burst: 5, burstWindowMs: 60_000 },
	/** WhatsApp sends: 5 requests per second per user. */
	whatsappSend: { name: 'whatsapp-send', perMinute: 300, burst: 5, burstWindowMs: 1_000 },
} satisfies Record<string, EndpointLimit>;

const DEFAULT_BURST_WINDOW_MS = 10_000;

/**
 * Pacing: the first requests of a burst start at once; the rest of it is
 * spread over a fifth of the burst window (2 s for the standard 20 per
 * 10 s). Fewer requests are then on their way when the service's window
 * fills, which is what a 429 costs when other processes share the account:
 * every request started before this process's first 429 comes back is
 * refused too. Beyond half of the burst in the window (the part a process
 * keeps after a first cut; processes that start together fill the account
 * there), while it has the whole budget, the pace also follows the answer
 * time: the k-th request beyond the half starts at least a k-th of it after
 * the one before, so about k requests are on their way there however slow
 * the answers. A window kept full (a process alone) passes that point once.
 */
const UNPACED_REQUESTS = 5;
export const BURST_SPREAD = 5;

/**
 * A grant's time in the log, until it is refunded or voided (a 429 before it
 * started): its start while it waits, when it was sent while it is on its
 * way, when it was answered after.
 */
interface Entry {
	time: number | undefined;
	/** When the request may start, or when it went. */
	start: number;
	voided: boolean;
}

/** A start time handed out by the limiter, kept in its log until it leaves the minute window. */
export interface Grant {
	/** When the request may start (ms since epoch); once it went, when that was (a busy process sends late). */
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
 * caller's slot is reserved at once, so concurrent callers queue up fairly;
 * a 429 voids the reservations it proves wrong (see `refused`).
 *
 * Every n8n process (a main, each queue-mode worker) has its own limiter, and
 * the account's budget is shared by all of them: the limiter therefore uses
 * an adaptive share of the configured budget (adaptiveShare.ts) and paces
 * bursts, so that processes sharing an account meet few 429s without the
 * user dividing the budget by hand.
 */
export class SlidingWindowLimiter {
	/** Times of the requests in the log, ascending. */
	private log: number[] = [];

	private blockedUntil = 0;

	/** Start of the last grant: pacing counts from it. */
	private lastStart = 0;

	/** Grants whose start was still to come when they were handed out. */
	private readonly waiting = new Set<Entry>();

	/** Requests sent and not answered yet: the service may count them at any moment until their answer. */
	private readonly onTheirWay = new Set<Entry>();

	/** This process's share of the configured budget (adaptiveShare.ts). */
	private readonly adaptive = new AdaptiveShare();

	/** Answer time of the service (moving average of the last requests), unknown before the first answer. */
	private latency: number | undefined;

	constructor(private settings: RateLimitSettings) {}

	/** A request of this credential got its answer `ms` after it was sent. */
	observeLatency(ms: number) {
		if (!(ms >= 0)) return;
		this.latency = this.latency === undefined ? ms : this.latency + (ms - this.latency) / 5;
	}

	/** The service's recent answer time in ms, if any request was answered yet. */
	latencyMs(): number | undefined {
		return this.latency;
	}

	configure(settings: RateLimitSettings) {
		this.settings = settings;
	}

	/** The share of the configured budget this process uses now (1 = all of it). */
	share(now = getClock().now()): number {
		return this.adaptive.at(now);
	}

	/** The budget in effect: the configured one times the share, at least one request. */
	limits(now = getClock().now()) {
		const share = this.share(now);
		return {
			perMinute: Math.max(1, Math.floor(this.settings.perMinute * share)),
			burst: Math.max(1, Math.floor(this.settings.burst * share)),
			burstWindowMs: this.settings.burstWindowMs ?? DEFAULT_BURST_WINDOW_MS,
		};
	}

	/** Earliest start time for a new request, reserved for the caller (a 429 does not void it). */
	reserve(): number {
		const { grant, entry } = this.place();
		this.waiting.delete(entry);
		return grant.at;
	}

	/** Reserves the earliest start time and returns its handle (a 429 may void it: see acquire). */
	grant(): Grant {
		return this.place().grant;
	}

	private place(): { grant: Grant; entry: Entry } {
		const now = getClock().now();
		const { perMinute, burst, burstWindowMs } = this.limits(now);
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
		const inWindow = this.countSince(start - burstWindowMs);
		if (inWindow >= Math.min(UNPACED_REQUESTS, burst)) {
			start = Math.max(start, this.lastStart + this.spacing(inWindow, burst, burstWindowMs, now));
		}
		this.lastStart = start;
		this.log.push(start);
		const entry: Entry = { time: start, start, voided: false };
		if (start > now) this.waiting.add(entry);
		const remove = () => {
			this.waiting.delete(entry);
			this.onTheirWay.delete(entry);
			this.moveEntry(entry, undefined);
		};
		const grant: Grant = {
			get at() {
				return entry.start;
			},
			settle: () => {
				this.onTheirWay.delete(entry);
				if (entry.time === undefined) return;
				const answeredAt = getClock().now();
				if (answeredAt > entry.time) this.moveEntry(entry, answeredAt);
			},
			refund: remove,
		};
		return { grant, entry };
	}

	/** Moves an entry's time in the log (undefined: out of it). */
	private moveEntry(entry: Entry, time: number | undefined) {
		if (entry.time !== undefined) {
			const index = this.log.lastIndexOf(entry.time);
			if (index !== -1) this.log.splice(index, 1);
		}
		if (time !== undefined) this.insert(time);
		entry.time = time;
	}

	/**
	 * When a request of `entry` may really be sent, checked at the moment it
	 * would go (undefined: now). A start is placed from the log as it stood
	 * then, when the requests before it were still waiting or on their way at
	 * their starts; a busy process sends them late, and the service counts
	 * each when it arrives. So before a request goes, the windows ending now
	 * are counted again: every request answered in them (the log keeps its
	 * answer time, after the service counted it), every one still on its way
	 * (the service may count it until its answer) and every start due in them.
	 * With fewer than the budget the request goes; else it waits until enough
	 * answered ones have left the window, or, when those on their way fill
	 * it, a tenth of the answer time.
	 */
	private notBefore(entry: Entry, now: number): number | undefined {
		const { perMinute, burst, burstWindowMs } = this.limits(now);
		const own = entry.time;
		const end = this.firstAfter(now);
		let later: number | undefined;
		for (const [limit, span] of [
			[burst, burstWindowMs],
			[perMinute, MINUTE_MS],
		]) {
			// the log's requests in the window ending now, but this one
			const from = this.firstAfter(now - span);
			const ownInside = own !== undefined && own > now - span && own <= now;
			const others = end - from - (ownInside ? 1 : 0);
			let lasting = 0;
			for (const other of this.onTheirWay) {
				if (other.time !== undefined && other.time <= now - span) lasting++;
			}
			const excess = others + lasting + 1 - limit;
			if (excess <= 0) continue;
			let until = now + Math.max(1, Math.ceil((this.latency ?? 100) / 10));
			if (excess <= others) {
				// the excess-th oldest of the others leaves the window then
				let index = from + excess - 1;
				if (ownInside && own <= this.log[index]) index++;
				// later than now also when the sum rounds to it (fractional times, as in virtual time)
				until = Math.max(now + 1, this.log[index] + span);
			}
			later = Math.max(later ?? until, until);
		}
		return later;
	}

	/** Index of the first request in the log after `time` (the log is sorted). */
	private firstAfter(time: number): number {
		let low = 0;
		let high = this.log.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.log[middle] <= time) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	/**
	 * Time between two paced starts with `inWindow` requests in the burst
	 * window (BURST_SPREAD). The answer time counts only while this process
	 * has the whole budget: a process whose share was cut fills the account
	 * with the others at the top of its share, not at half of it.
	 */
	private spacing(inWindow: number, burst: number, burstWindowMs: number, now: number): number {
		const paced = burstWindowMs / (burst * BURST_SPREAD);
		const beyondHalf = inWindow - Math.floor(burst * DEEPEST_CUT) + 1;
		if (beyondHalf < 1 || this.latency === undefined || this.share(now) < 1) return paced;
		return Math.max(paced, Math.ceil(this.latency / beyondHalf));
	}

	/** Requests in the log after `time`. */
	private countSince(time: number): number {
		return this.log.length - this.firstAfter(time);
	}

	private insert(time: number) {
		this.log.splice(this.firstAfter(time), 0, time);
	}

	/** Waits until the caller may send a request; the handle settles or refunds it. */
	async acquire(): Promise<Grant> {
		const clock = getClock();
		let { grant, entry } = this.place();
		for (;;) {
			for (let wait = grant.at - clock.now(); wait > 0; wait = grant.at - clock.now()) {
				await clock.sleep(wait);
			}
			// woken late (a busy process), it lets a 429 already here be read first (clock.ts)
			if (clock.now() > grant.at + 1) await clock.readArrived?.();
			// a 429 while this caller waited pauses it too: it queues again behind the pause
			if (entry.voided || this.blockedUntil > grant.at) {
				grant.refund();
				({ grant, entry } = this.place());
				continue;
			}
			const now = clock.now();
			const later = this.notBefore(entry, now);
			if (later !== undefined) {
				this.moveEntry(entry, later);
				entry.start = later;
				this.waiting.add(entry);
				this.lastStart = Math.max(this.lastStart, later);
				continue;
			}
			// sent now: the log keeps when it went until its answer
			this.waiting.delete(entry);
			this.onTheirWay.add(entry);
			if (entry.time !== undefined && now > entry.time) this.moveEntry(entry, now);
			entry.start = Math.max(entry.start, now);
			return grant;
		}
	}

	/**
	 * The service answered 429 and asked to wait: no request with this
	 * credential starts before `until`. Starts already reserved inside the
	 * pause leave the log at once (their callers queue again when they
	 * wake): they hold no place in the windows meanwhile.
	 */
	pauseUntil(until: number) {
		this.blockedUntil = Math.max(this.blockedUntil, until);
		this.voidWaiting((time) => time < this.blockedUntil);
	}

	/** Takes the reserved starts still to come that `which` names out of the log. */
	private voidWaiting(which: (time: number) => boolean) {
		const now = getClock().now();
		let last = Math.min(this.lastStart, now);
		for (const entry of this.waiting) {
			const time = entry.time;
			if (time !== undefined && time > now && !which(time)) {
				last = Math.max(last, time);
				continue;
			}
			this.waiting.delete(entry);
			if (time === undefined || time <= now) continue;
			const index = this.log.lastIndexOf(time);
			if (index !== -1) this.log.splice(index, 1);
			entry.time = undefined;
			entry.voided = true;
		}
		this.lastStart = last;
	}

	/**
	 * The service refused a request of this grant with 429: the account's
	 * budget is spent. Pauses every request until `until` and cuts this
	 * process's share, unless the request started before the last cut (then
	 * its 429 belongs to the congestion already answered, and only its own
	 * caller waits what it was told). A cut voids every start reserved
	 * before it (handed out for the larger share): their callers queue again
	 * at the smaller one.
	 */
	refused(grant: Grant, until: number) {
		// its caller waits what it was told; the pause of all is the one the congestion's first 429 set
		if (grant.at <= this.adaptive.cutAt) return;
		this.pauseUntil(until);
		const now = getClock().now();
		const { burstWindowMs } = this.limits(now);
		// the part of the configured budget this process was using when the service was full
		const used = Math.max(
			this.countBetween(now - burstWindowMs, now) / this.settings.burst,
			this.countBetween(now - MINUTE_MS, now) / this.settings.perMinute,
		);
		this.adaptive.cut(now, used);
		this.voidWaiting(() => true);
	}

	private countBetween(from: number, to: number): number {
		return this.firstAfter(to) - this.firstAfter(from);
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
