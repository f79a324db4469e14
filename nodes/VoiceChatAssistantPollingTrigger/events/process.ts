/**
 * Which n8n process wrote a saved state last. n8n's default poller saves the
 * node's static data only when a poll emits (and at activation): after a
 * restart the trigger reads the state of the last poll that emitted, and what
 * later polls noted without emitting is gone. A state written by another
 * process (or by this one before it forgot, in tests) may miss such polls;
 * one written by this process is the current one. With n8n's durable poll
 * cursors every poll is saved, and a restart loses nothing: the state is then
 * "stale" only in the harmless sense that the process changed.
 */

let current = newProcessId();

/** A new id, unique enough to tell processes and activations apart. */
export function newProcessId(): string {
	return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** This process's id, written into each state the trigger saves. */
export function processId(): string {
	return current;
}

/** Whether a state last written by `writer` may have lost polls (another process wrote it). */
export function isStale(writer: string | undefined): boolean {
	return writer !== undefined && writer !== current;
}

/** Tests: behave as a newly started n8n process. */
export function restartProcessForTests() {
	current = newProcessId();
}
