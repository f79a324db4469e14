export const MINUTE_MS = 60_000;

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
export const DEEPEST_CUT = 0.5;
const RECOVERY_STEP = 0.05;
const LONGEST_QUIET_MINUTES = 4;

/** The share of the configured budget one process (one limiter) takes, cut by 429s and grown back without them. */
export class AdaptiveShare {
	/** The share set by the last cut. */
	private atCut = 1;

	/** When the last cut was. */
	cutAt = Number.NEGATIVE_INFINITY;

	/** Cuts since the share was last whole. */
	private cuts = 0;

	/** The share at `now` (1 = the whole budget). */
	at(now: number): number {
		if (this.atCut >= 1) return 1;
		const quiet = Math.min(LONGEST_QUIET_MINUTES, 2 ** (this.cuts - 1)) - 1;
		const minutes = Math.floor((now - this.cutAt) / MINUTE_MS) - quiet;
		if (minutes <= 0) return this.atCut;
		// 5 %, then 10 %, 20 %, … of the budget per quiet minute
		const regained = RECOVERY_STEP * (2 ** Math.min(minutes, 10) - 1);
		return Math.min(1, this.atCut + regained);
	}

	/** The service refused at `now` while this process used `used` of the configured budget. */
	cut(now: number, used: number) {
		const share = this.at(now);
		if (share >= 1) this.cuts = 0;
		// using less than half of its share, this process is not what fills the window: a mild cut
		const crowdedOut = used < share * DEEPEST_CUT;
		const cut =
			share >= 1
				? DEEPEST_CUT
				: crowdedOut
					? share * SMALLEST_CUT
					: Math.min(share * SMALLEST_CUT, Math.max(share * DEEPEST_CUT, used));
		this.atCut = Math.max(MIN_SHARE, cut);
		this.cutAt = now;
		this.cuts++;
	}
}
