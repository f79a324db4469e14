/**
 * What the webhook trigger keeps in this process's memory between n8n's calls, in one place:
 * every family makes its maps and sets here (processMap, processSet) and names here what else a
 * restart of n8n resets (onRestart); forgetProcess() resets all of it at once, as a restart does
 * (n8n's start loads the modules afresh; the tests call it before each test).
 *
 * Who keeps what: calls/world.ts (the registrations this process wrote, what a failed activation
 * left), calls/catchUpState.ts (the catch-up's newest state, attempts, copies n8n will save,
 * heartbeats, and when this process started), calls/catchUp.ts (the catch-ups under way),
 * calls/catchUpList.ts (the last list read while the service's zone is unknown),
 * calls/heartbeat.ts (the heartbeats running), core/replays.ts (deliveries received and under
 * way), whatsapp/ (signatures accepted, the last warning about a full memory).
 */

const resets: Array<() => void> = [];

/** A map kept in this process's memory, emptied by forgetProcess. */
export function processMap<K, V>(): Map<K, V> {
	const map = new Map<K, V>();
	resets.push(() => map.clear());
	return map;
}

/** A set kept in this process's memory, emptied by forgetProcess. */
export function processSet<T>(): Set<T> {
	const set = new Set<T>();
	resets.push(() => set.clear());
	return set;
}

/** What else a restart resets (a value kept in a module's `let`). */
export function onRestart(reset: () => void): void {
	resets.push(reset);
}

/** Forgets everything this process remembers, as a restart of n8n does. */
export function forgetProcess(): void {
	for (const reset of resets) reset();
}
