import { sleep } from 'n8n-workflow';

/**
 * Time source of the transport. Every wait of the retry logic and the rate
 * limiter goes through it, so tests can replace it with a fake clock.
 */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

const realClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms: number) => {
		if (ms > 0) await sleep(ms);
	},
	random: () => Math.random(),
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
