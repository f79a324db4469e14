import { BURST_SPREAD } from './rateLimiter';
import type { SlidingWindowLimiter } from './rateLimiter';

/**
 * Requests in flight that follow the budget ("Requests in Flight" left at
 * its default): enough to keep the credential's budget in use at the
 * service's answer time, never more than the budget or the cap.
 */
export const IN_FLIGHT = {
	/** The most requests in flight without a setting (the setting may ask for up to the same). */
	cap: 128,
	/** Answer time assumed before the first answer of the credential. */
	assumedLatencyMs: 100,
	/** Requests in flight beyond what the rate and answer time need: the node's own work per item, jitter. */
	headroom: 1,
};

/**
 * Little's law: the fastest rate the limiter hands out (a burst's paced part:
 * `burst` requests in a fifth of its window) times the answer time, plus the
 * headroom; at most the cap and the budget in effect (the burst and the
 * minute budget, after the adaptive share of queue mode). At the standard
 * budget (100 per minute, 20 per 10 s) that is 2 at up to 100 ms, 4 at 300 ms.
 */
export function inFlightForBudget(
	limits: { perMinute: number; burst: number; burstWindowMs: number },
	latencyMs: number,
): number {
	const perMs = (limits.burst * BURST_SPREAD) / limits.burstWindowMs;
	const needed = Math.ceil(perMs * Math.max(0, latencyMs)) + IN_FLIGHT.headroom;
	return Math.max(1, Math.min(IN_FLIGHT.cap, limits.burst, limits.perMinute, needed));
}

/** The requests in flight for a credential's limiter now: its budget in effect and its observed answer time. */
export function inFlightFor(limiter: SlidingWindowLimiter): number {
	return inFlightForBudget(limiter.limits(), limiter.latencyMs() ?? IN_FLIGHT.assumedLatencyMs);
}
