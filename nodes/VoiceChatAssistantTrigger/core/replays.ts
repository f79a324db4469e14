import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { processMap, processSet } from './memory';

/**
 * Deliveries already received. A service may post a delivery again (for chat
 * webhooks after 30, 60 and 120 s when it saw no 2xx answer in time), and the
 * catch-up (catchUp.ts) starts calls whose delivery may still come, so a
 * workflow could be started twice for one call. A delivery whose key
 * (payload.ts: deliveryKey) was seen within the last hour by this trigger, or
 * whose item is being built right now (`inFlight`), starts nothing and is
 * answered 200. A delivery counts as received once its item is built
 * (`remember`), not when it arrives (`seen` only asks).
 *
 * The memory is per n8n process (the main, or the webhook process that
 * receives the deliveries in queue mode), which is where every retry of one
 * delivery arrives when a single process serves the webhooks.
 */

export const REPLAY_WINDOW_MS = 60 * 60_000;
const MAX_KEYS = 10_000;

/** Key → when it was first received (ms); insertion order is age order. */
const received = processMap<string, number>();

/** Forgets keys older than the window (and the oldest beyond MAX_KEYS). */
function prune(now: number) {
	for (const [oldKey, at] of received) {
		if (now - at <= REPLAY_WINDOW_MS && received.size <= MAX_KEYS) break;
		received.delete(oldKey);
	}
}

/** Whether the delivery was already received (its item built) within the window. Records nothing. */
export function seen(key: string): boolean {
	const now = getClock().now();
	prune(now);
	const at = received.get(key);
	return at !== undefined && now - at <= REPLAY_WINDOW_MS;
}

/**
 * Records the delivery as received. Called once its item is built, so a
 * delivery that fails before (and is delivered again) is not taken for a replay.
 */
export function remember(key: string): void {
	const now = getClock().now();
	received.delete(key);
	received.set(key, now);
	prune(now);
}

/**
 * `seen` and `remember` in one: true when the delivery was already received
 * within the window, else records it. For an item that is built already.
 */
export function isReplay(key: string): boolean {
	if (seen(key)) return true;
	remember(key);
	return false;
}

/** Deliveries whose item is being built right now (a recording download may take a while). */
const inProgress = processSet<string>();

/** Marks a delivery whose item is being built, until `finish`. */
export function start(key: string): void {
	inProgress.add(key);
}

/** The item of the delivery is built, or failed. */
export function finish(key: string): void {
	inProgress.delete(key);
}

/** Whether a delivery of this key is being built right now. */
export function inFlight(key: string): boolean {
	return inProgress.has(key);
}

/** Whether this process received the delivery (its item built) or is building it now. */
export function receivedHere(key: string | undefined): boolean {
	return key !== undefined && (seen(key) || inFlight(key));
}
