import type { Clock } from '../../nodes/VoiceChatAssistant/transport/clock';
import { setClock } from '../../nodes/VoiceChatAssistant/transport/clock';

/**
 * A clock whose time only moves when somebody sleeps. `sleeps` records every
 * wait, so tests can assert the exact backoff and rate-limit delays.
 */
export function installFakeClock(start = 1_700_000_000_000, random = 0.5) {
	let time = start;
	const sleeps: number[] = [];
	const clock: Clock = {
		now: () => time,
		sleep: async (ms: number) => {
			sleeps.push(ms);
			if (ms > 0) time += ms;
		},
		random: () => random,
	};
	const restore = setClock(clock);
	return {
		clock,
		sleeps,
		now: () => time,
		advance: (ms: number) => {
			time += ms;
		},
		restore,
	};
}
