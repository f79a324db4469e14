import type { IPollFunctions } from 'n8n-workflow';

import { getClock } from '../VoiceChatAssistant/transport/clock';

/**
 * One poll at a time per trigger. n8n's default poller starts a poll at each
 * of the Poll Times without waiting for the one before (`void
 * executePollTrigger()`), and every poll of an activation works on the same
 * static data: two polls at once would both emit what happened since the
 * saved position. A poll that starts while another of the same trigger (the
 * same workflow and node, in this n8n process) is still running emits
 * nothing and leaves the static data alone; the running poll goes on, and
 * the next poll after it emits whatever came meanwhile.
 *
 * A poll still running after `FLIGHT_TAKEOVER_MS` is taken over by the next
 * one (a warning in n8n's log); when it returns at last, it emits nothing and
 * writes nothing, so the poll that took over is the only one that counts.
 */

/** A poll running longer than this is taken over by the next one. */
export const FLIGHT_TAKEOVER_MS = 60 * 60_000;

const LOG = 'Voice Chat Assistant Polling Trigger:';

interface Flight {
	token: object;
	since: number;
}

const flights = new Map<string, Flight>();

export interface Boarding {
	/** Whether this poll still counts (it was not taken over meanwhile). */
	current(): boolean;
	/** The poll is over: the next one may start. */
	land(): void;
}

/** The trigger a poll belongs to in this n8n process: its workflow and node. */
export function triggerKey(ctx: IPollFunctions): string {
	const workflow = ctx.getWorkflow();
	const node = ctx.getNode();
	return JSON.stringify([String(workflow.id ?? ''), node.id ?? node.name]);
}

/** The poll's place, or undefined when another poll of the same trigger is running. */
export function board(ctx: IPollFunctions): Boarding | undefined {
	const key = triggerKey(ctx);
	const now = getClock().now();
	const running = flights.get(key);
	if (running) {
		const minutes = Math.round((now - running.since) / 60_000);
		if (now - running.since < FLIGHT_TAKEOVER_MS) {
			ctx.logger.info(
				`${LOG} the previous poll is still running (for ${minutes} min): this poll is skipped, the next one goes on from where that poll gets`,
			);
			return undefined;
		}
		ctx.logger.warn(
			`${LOG} the previous poll has been running for ${minutes} min: this poll takes over, and that poll will emit nothing`,
		);
	}
	const flight: Flight = { token: {}, since: now };
	flights.set(key, flight);
	return {
		current: () => flights.get(key) === flight,
		land: () => {
			if (flights.get(key) === flight) flights.delete(key);
		},
	};
}
