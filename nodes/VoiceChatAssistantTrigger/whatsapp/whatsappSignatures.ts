/**
 * The replay protection of signed posts whose `timestamp` has no zone. Such a
 * time is fresh when some zone from UTC-12:00 to UTC+14:00 puts it inside the
 * window (whatsappTime.ts), so a captured copy of the post could pass the time
 * check for up to about 26 hours. What does not depend on the zone is the
 * post itself: its signature (the HMAC of its exact bytes under the sender's
 * secret, so the same post always has the same signature and no other post
 * has it). This memory keeps the signature of every zone-less post accepted
 * until no zone could make its `timestamp` fresh any more (`freshUntil`); a
 * post whose signature it holds starts nothing:
 * - within the service's retry span (MAX_AGE_MS after it was first accepted)
 *   it is a redelivery, answered 200 `duplicate` (the service retries the
 *   same bytes when it missed the answer);
 * - later it is a replay, answered 401.
 *
 * The memory is per n8n process and lost at a restart (like the replay
 * memory of core/replays.ts). It holds at most MAX_SIGNATURES entries; when
 * more zone-less posts arrive within their span, the oldest are forgotten
 * (and n8n's log says so), which only gives their copies back the time check.
 */

import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { processMap } from '../core/memory';

/**
 * Signatures kept at most: about 10 MB at worst, and room for 50,000 zone-less
 * statuses within their span (up to 26 hours; for a sender in UTC+02:00,
 * 14 hours), about 3 statuses each (sent, delivered, read) of some 16,000
 * messages.
 */
export const MAX_SIGNATURES = 50_000;

interface Accepted {
	/** When the post was first accepted (epoch ms). */
	at: number;
	/** Until when its `timestamp` could be fresh (epoch ms): then it is forgotten. */
	until: number;
}

/** Signature → when accepted; insertion order is acceptance order. */
const accepted = processMap<string, Accepted>();

/**
 * The signature of a post as a key: the hex of `X-Signature-256` in lower
 * case (the header n8n gives may be a list). Only for a post whose signature
 * was verified.
 */
export function signatureKey(header: unknown): string | undefined {
	const given = Array.isArray(header) ? header[0] : header;
	if (typeof given !== 'string') return undefined;
	const match = /^sha256=([0-9a-f]{64})$/i.exec(given.trim());
	return match ? match[1].toLowerCase() : undefined;
}

/** Forgets what no zone could make fresh any more, from the oldest on. */
function prune(now: number) {
	for (const [key, entry] of accepted) {
		if (entry.until >= now) break;
		accepted.delete(key);
	}
}

/** When the post of this signature was first accepted, while it is remembered; else undefined. */
export function acceptedAt(key: string, now = getClock().now()): number | undefined {
	prune(now);
	const entry = accepted.get(key);
	return entry !== undefined && entry.until >= now ? entry.at : undefined;
}

/**
 * Remembers an accepted post until `until`. Returns how many other posts,
 * still within their span, had to be forgotten to make room (0 normally).
 */
export function rememberAccepted(key: string, until: number, now = getClock().now()): number {
	prune(now);
	accepted.delete(key);
	accepted.set(key, { at: now, until });
	let forgotten = 0;
	for (const [oldKey, entry] of accepted) {
		if (accepted.size <= MAX_SIGNATURES) break;
		accepted.delete(oldKey);
		if (entry.until >= now) forgotten++;
	}
	return forgotten;
}
