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

const MINUTE_MS = 60_000;
const DEFAULT_BURST_WINDOW_MS = 10_000;

/**
 * Pacing: the first requests of a burst start at once; the rest of it is
 * spread over a fifth of the burst window (2 s for the standard 20 per
 * 10 s). Fewer requests are then on their way when the service's window
 * fills, which is what a 429 costs when other processes share the account:
 * every request started before this process's first 429 comes back is
 * refused too. Beyond half of the burst in the window (the part a process
 * keeps after a first cut; processes that start together fill the account
 * there) the pace also follows the service's answer time: the k-th request
 * beyond the half starts at least a k-th of the answer time after the one
 * before it, so about k requests are on their way there however slow the
 * answers. A window kept full (a process alone) passes that point once.
 */
const UNPACED_REQUESTS = 5;
export const BURST_SPREAD = 5;

/**
 * The adaptive share (AIMD). A 429 means the account's budget is spent by
 * others too (other n8n workers, other clients of the account), so this
 * process takes a smaller share of the configured budget, once per
 * congestion (429s of requests sent before the cut count as the same one):
 * - from the whole budget it halves it, so processes that start together
 *   end up with equal shares and finish equal work together;
 * - from a reduced share (a probe for more that met the others) it cuts to
 *   the part it was using when the service refused, at least to half and
 *   at most to 90 % of what it had, so the account stays used;
 * - a process using less than half of its reduced share when refused is
 *   crowded out rather than crowding: it cuts only to 90 %, so a worker that
 *   joined a busy account late is not starved once the others stop.
 * Without a 429 the share grows back slowly: after a quiet minute by 5 % of
 * the budget, then by 10 %, 20 %, 40 % in each further minute, so a process
 * left alone is back at the whole budget within four minutes. A cut that
 * comes before the share is whole again doubles the quiet time before the
 * next step (1, 2, then 4 minutes): processes that keep sharing the account
 * probe for more less and less often.
 */
const MIN_SHARE = 1 / 16;
const SMALLEST_CUT = 0.9;
const DEEPEST_CUT = 0.5;
const RECOVERY_STEP = 0.05;
const LONGEST_QUIET_MINUTES = 4;

/** A grant's time in the log, until it is refunded or voided (a 429 before it started). */
interface Entry {
	time: number | undefined;
	voided: boolean;
}

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
 * caller's slot is reserved at once, so concurrent callers queue up fairly;
 * a 429 voids the reservations it proves wrong (see `refused`).
 *
 * Every n8n process (a main, each queue-mode worker) has its own limiter, and
 * the account's budget is shared by all of them: the limiter therefore uses
 * an adaptive share of the configured budget (see MIN_SHARE above) and paces
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

	/** The share of the budget set by the last cut, and when that was. */
	private shareAtCut = 1;

	private cutAt = Number.NEGATIVE_INFINITY;

	/** Cuts since the share was last whole. */
	private cuts = 0;

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
		if (this.shareAtCut >= 1) return 1;
		const quiet = Math.min(LONGEST_QUIET_MINUTES, 2 ** (this.cuts - 1)) - 1;
		const minutes = Math.floor((now - this.cutAt) / MINUTE_MS) - quiet;
		if (minutes <= 0) return this.shareAtCut;
		// 5 %, then 10 %, 20 %, … of the budget per quiet minute
		const regained = RECOVERY_STEP * (2 ** Math.min(minutes, 10) - 1);
		return Math.min(1, this.shareAtCut + regained);
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
			start = Math.max(start, this.lastStart + this.spacing(inWindow, burst, burstWindowMs));
		}
		this.lastStart = start;
		this.log.push(start);
		const entry: Entry = { time: start, voided: false };
		if (start > now) this.waiting.add(entry);
		const remove = () => {
			this.waiting.delete(entry);
			if (entry.time === undefined) return;
			const index = this.log.lastIndexOf(entry.time);
			if (index !== -1) this.log.splice(index, 1);
			entry.time = undefined;
		};
		const grant: Grant = {
			at: start,
			settle: () => {
				if (entry.time === undefined) return;
				const answeredAt = getClock().now();
				if (answeredAt <= entry.time) return;
				remove();
				this.insert(answeredAt);
				entry.time = answeredAt;
			},
			refund: remove,
		};
		return { grant, entry };
	}

	/** Time between two paced starts with `inWindow` requests in the burst window (BURST_SPREAD). */
	private spacing(inWindow: number, burst: number, burstWindowMs: number): number {
		const paced = burstWindowMs / (burst * BURST_SPREAD);
		const beyondHalf = inWindow - Math.floor(burst * DEEPEST_CUT) + 1;
		if (beyondHalf < 1 || this.latency === undefined) return paced;
		return Math.max(paced, Math.ceil(this.latency / beyondHalf));
	}

	/** Requests in the log after `time`. */
	private countSince(time: number): number {
		let count = 0;
		for (let i = this.log.length - 1; i >= 0 && this.log[i] > time; i--) count++;
		return count;
	}

	private insert(time: number) {
		let index = this.log.length;
		while (index > 0 && this.log[index - 1] > time) index--;
		this.log.splice(index, 0, time);
	}

	/** Waits until the caller may send a request; the handle settles or refunds it. */
	async acquire(): Promise<Grant> {
		const clock = getClock();
		let { grant, entry } = this.place();
		for (;;) {
			const wait = grant.at - clock.now();
			if (wait > 0) await clock.sleep(wait);
			// a 429 while this caller waited pauses it too: it queues again behind the pause
			if (!entry.voided && this.blockedUntil <= grant.at) {
				this.waiting.delete(entry);
				return grant;
			}
			grant.refund();
			({ grant, entry } = this.place());
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
	 * budget is spent. Pauses until `until` and cuts this process's share,
	 * unless the request started before the last cut (then its 429 belongs to
	 * the congestion already answered). A cut voids every start reserved
	 * before it (handed out for the larger share): their callers queue again
	 * at the smaller one.
	 */
	refused(grant: Grant, until: number) {
		this.pauseUntil(until);
		const now = getClock().now();
		if (grant.at <= this.cutAt) return;
		const share = this.share(now);
		if (share >= 1) this.cuts = 0;
		const { burstWindowMs } = this.limits(now);
		// the part of the configured budget this process was using when the service was full
		const used = Math.max(
			this.countBetween(now - burstWindowMs, now) / this.settings.burst,
			this.countBetween(now - MINUTE_MS, now) / this.settings.perMinute,
		);
		// using less than half of its share, this process is not what fills the window: a mild cut
		const crowdedOut = used < share * DEEPEST_CUT;
		const cut =
			share >= 1
				? DEEPEST_CUT
				: crowdedOut
					? share * SMALLEST_CUT
					: Math.min(share * SMALLEST_CUT, Math.max(share * DEEPEST_CUT, used));
		this.shareAtCut = Math.max(MIN_SHARE, cut);
		this.cutAt = now;
		this.cuts++;
		this.voidWaiting(() => true);
	}

	private countBetween(from: number, to: number): number {
		return this.log.filter((time) => time > from && time <= to).length;
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
