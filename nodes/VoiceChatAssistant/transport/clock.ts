import { sleep } from 'n8n-workflow';

/**
 * Time source of the transport. Every wait of the retry logic and the rate
 * limiter goes through it, so tests can replace it with a fake clock.
 */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
	/**
	 * Lets the event loop read what has arrived before going on. A timer that
	 * fires late (a busy process) fires together with others, before the loop
	 * reads the answers waiting on its sockets: a 429 among them is then read
	 * only after every request those timers release has gone.
	 */
	readArrived?(): Promise<void>;
}

const realClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms: number) => {
		if (ms > 0) await sleep(ms);
	},
	random: () => Math.random(),
	// a timer set now runs after the loop has polled its sockets (the next turn, 1 ms on)
	readArrived: async () => await sleep(0),
};

let current: Clock = realClock;

export function getClock(): Clock {
	return current;
}

/** Replaces the clock (tests only); returns a function that restores the previous one. */
export function setClock(clock: Clock): () => void {
	const previous = current;
	current = clock;
	return () => {
		current = previous;
	};
}
