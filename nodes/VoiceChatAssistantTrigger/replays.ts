import type { IDataObject } from 'n8n-workflow';

import { getClock } from '../VoiceChatAssistant/transport/clock';

/**
 * Deliveries already received. The service retries a delivery after 30, 60
 * and 120 s when it did not see a 2xx answer in time, so a workflow can be
 * started twice for one call. A delivery whose key was seen within the last
 * hour by this trigger starts nothing and is answered 200.
 *
 * The memory is per n8n process (the main, or the webhook process that
 * receives the deliveries in queue mode), which is where every retry of one
 * delivery arrives when a single process serves the webhooks.
 */

export const REPLAY_WINDOW_MS = 60 * 60_000;
const MAX_KEYS = 10_000;

/** Key → when it was first received (ms); insertion order is age order. */
const received = new Map<string, number>();

/**
 * What makes a delivery the same delivery: the call id, or the conversation id
 * with its end time (a chat that goes on after it ended may end again).
 */
export function deliveryKey(
	scope: string,
	event: string,
	payload: IDataObject,
): string | undefined {
	const conversation = payload.conversation_id;
	if (typeof conversation === 'string' && conversation) {
		return `${scope}|${event}|conversation:${conversation}|${String(payload.ended_at ?? '')}`;
	}
	const id = payload.id ?? payload.call_id;
	if (typeof id === 'number' || (typeof id === 'string' && id.trim() !== '')) {
		return `${scope}|${event}|call:${String(id)}`;
	}
	return undefined;
}

/** Records the key; true when it was already received within the window (a replay). */
export function isReplay(key: string): boolean {
	const now = getClock().now();
	for (const [oldKey, at] of received) {
		if (now - at <= REPLAY_WINDOW_MS && received.size <= MAX_KEYS) break;
		received.delete(oldKey);
	}
	const at = received.get(key);
	if (at !== undefined && now - at <= REPLAY_WINDOW_MS) return true;
	received.set(key, now);
	return false;
}

/** Forgets every delivery (tests only). */
export function resetReplays() {
	received.clear();
}
