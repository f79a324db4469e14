/**
 * How long a signed read receipt is good for. The signature proves that the
 * service wrote the bytes, not when: a post captured on the way (a proxy's
 * log, a leaked request dump) would verify forever. The post's `timestamp`
 * is inside the signed bytes, so it cannot be changed without the secret:
 * a correctly signed post is accepted only while its `timestamp` is recent.
 *
 * The service posts a status once and again after 30, 60 and 120 s while it
 * gets a 5xx, a 429 or no answer (FACTS: read-receipts webhook), with the same
 * bytes: the last attempt comes about 210 s after the `timestamp`. On top of
 * that, a margin of 5 minutes, for
 * - the time each attempt waits for n8n's answer (the service's timeout is
 *   not documented; 4 attempts of up to a minute each fit),
 * - the service holding a status in its queue before the first attempt,
 * - the clocks of the service and of n8n's host disagreeing (NTP keeps them
 *   within a second; a host without it drifts seconds a day);
 * 5 minutes is also the tolerance common for signed webhooks (Stripe's).
 * A `timestamp` ahead of n8n's clock is allowed the same margin (clock skew
 * only). Within the window, a redelivery starts nothing through the replay
 * memory (core/replays.ts), which keeps a status for an hour: longer than the
 * window, so any repeat of an accepted post meets it in the same process.
 *
 * A `timestamp` without a zone (`2026-11-26 09:00:00`) names no instant: the
 * service's docs do not say which zone its read receipts use, and it writes
 * other times without a zone in its own or the account's zone (the call list,
 * the chat transcripts). Read as UTC, a local time east or west of UTC would
 * be hours off and every genuine post refused with a 401, which the service
 * does not retry. So such a time is fresh when at least one zone from
 * UTC-12:00 to UTC+14:00 in whole quarter hours (every zone in use) puts it
 * inside the window. The window being shorter than a quarter hour, at most
 * one zone does. That makes a captured zone-less post acceptable for up to
 * about 26 hours, so its replay protection is the memory of the signatures of
 * the zone-less posts accepted (whatsappSignatures.ts), kept for as long as
 * any zone could still make it fresh (`freshUntil`). A time with a zone or a
 * Unix time is judged as strictly as ever.
 */

import { getClock } from '../../VoiceChatAssistant/transport/clock';
import {
	EARLIEST_OFFSET_MINUTES,
	LATEST_OFFSET_MINUTES,
	OFFSET_STEP_MINUTES,
	isZoneless,
	serviceTime,
} from '../../VoiceChatAssistant/transport/serviceTime';

/** 30 + 60 + 120 s: the service's retries of a read receipt after the first attempt. */
export const RETRY_SPAN_MS = (30 + 60 + 120) * 1000;

/** Attempt timeouts, queueing at the service and clock skew. */
export const MARGIN_MS = 5 * 60_000;

/** The oldest `timestamp` accepted: 8.5 minutes. */
export const MAX_AGE_MS = RETRY_SPAN_MS + MARGIN_MS;

/** The furthest a `timestamp` may be ahead of n8n's clock: 5 minutes. */
export const MAX_AHEAD_MS = MARGIN_MS;

/**
 * A post's `timestamp` as epoch ms: ISO 8601 with a zone (the service's form,
 * `2026-11-26T08:00:00.000Z`), a time without a zone as written, read as if
 * it were UTC (freshness() tries every zone on it), or Unix time as a number
 * (seconds, or ms from 10^11 on). Anything else: undefined.
 */
export function postTime(value: unknown): number | undefined {
	if (typeof value === 'number') return unixTime(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return unixTime(Number(text));
	return serviceTime(text, 0);
}

function unixTime(value: number): number | undefined {
	if (!Number.isFinite(value) || value <= 0) return undefined;
	return value >= 1e11 ? value : value * 1000;
}

export type Freshness =
	| { fresh: true; at: number }
	| {
			fresh: true;
			/** The instant under the one zone that puts the time inside the window. */
			at: number;
			zoneless: true;
			/** That zone's offset from UTC in minutes (east positive). */
			offsetMinutes: number;
			/** Until when (epoch ms) some zone could still make this time fresh. */
			freshUntil: number;
	  }
	| { fresh: false; problem: 'unreadable' }
	| {
			fresh: false;
			problem: 'old' | 'ahead';
			/** The instant (for a zone-less time: under the zone that comes nearest the window). */
			at: number;
			ageMs: number;
			zoneless?: true;
	  };

/**
 * Whether a signed post's `timestamp` is within the window around n8n's clock
 * now. A time without a zone: whether some zone from UTC-12:00 to UTC+14:00
 * (whole quarter hours) puts it there.
 */
export function freshness(timestamp: unknown, now = getClock().now()): Freshness {
	const at = postTime(timestamp);
	if (at === undefined) return { fresh: false, problem: 'unreadable' };
	if (isZoneless(timestamp)) return zonelessFreshness(at, now);
	const ageMs = now - at;
	if (ageMs > MAX_AGE_MS) return { fresh: false, problem: 'old', at, ageMs };
	if (-ageMs > MAX_AHEAD_MS) return { fresh: false, problem: 'ahead', at, ageMs };
	return { fresh: true, at };
}

/** `written`: the zone-less time read as UTC. */
function zonelessFreshness(written: number, now: number): Freshness {
	let nearest: { at: number; ageMs: number; miss: number } | undefined;
	for (
		let offset = EARLIEST_OFFSET_MINUTES;
		offset <= LATEST_OFFSET_MINUTES;
		offset += OFFSET_STEP_MINUTES
	) {
		const at = written - offset * 60_000;
		const ageMs = now - at;
		if (ageMs <= MAX_AGE_MS && -ageMs <= MAX_AHEAD_MS) {
			// the westernmost zone gives the latest instant: fresh under some zone until that is too old
			const freshUntil = written - EARLIEST_OFFSET_MINUTES * 60_000 + MAX_AGE_MS;
			return { fresh: true, at, zoneless: true, offsetMinutes: offset, freshUntil };
		}
		const miss = ageMs > MAX_AGE_MS ? ageMs - MAX_AGE_MS : -ageMs - MAX_AHEAD_MS;
		if (!nearest || miss < nearest.miss) nearest = { at, ageMs, miss };
	}
	const { at, ageMs } = nearest!;
	return { fresh: false, problem: ageMs > MAX_AGE_MS ? 'old' : 'ahead', at, ageMs, zoneless: true };
}

/** A duration for people: "9 minutes 5 seconds", "42 seconds", "3 hours 2 minutes". */
export function duration(ms: number): string {
	const seconds = Math.round(Math.abs(ms) / 1000);
	const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
	if (seconds < 60) return plural(seconds, 'second');
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) {
		const rest = seconds % 60;
		return rest
			? `${plural(minutes, 'minute')} ${plural(rest, 'second')}`
			: plural(minutes, 'minute');
	}
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	return rest ? `${plural(hours, 'hour')} ${plural(rest, 'minute')}` : plural(hours, 'hour');
}
