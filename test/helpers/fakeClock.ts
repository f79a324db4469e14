import nock from 'nock';

import type { Clock } from '../../nodes/VoiceChatAssistant/transport/clock';
import { setClock } from '../../nodes/VoiceChatAssistant/transport/clock';
import { resetLimiters } from '../../nodes/VoiceChatAssistant/transport/rateLimiter';

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

/**
 * For a describe block: before each test a fresh fake clock, the rate
 * limiters forgotten and the network closed to anything nock does not
 * answer; after it the real clock back and nock's interceptors removed.
 * Returns the running test's clock.
 */
export function fakeClockPerTest(start?: number, random?: number) {
	let current: ReturnType<typeof installFakeClock>;
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
		current = installFakeClock(start, random);
	});
	afterEach(() => {
		current.restore();
		nock.cleanAll();
	});
	return {
		get clock() {
			return current.clock;
		},
		get sleeps() {
			return current.sleeps;
		},
		now: () => current.now(),
		advance: (ms: number) => current.advance(ms),
	};
}
