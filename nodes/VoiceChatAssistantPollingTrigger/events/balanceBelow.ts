import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { apiRequest, unwrap } from '../../VoiceChatAssistant/transport';
import type { BalanceWatch } from '../watches';
import type { EventRun, PollEvent } from './event';
import { emit } from './event';
import { triggerKey } from '../singleFlight';
import { processId } from './process';

/**
 * Balance Below: the account's balance (`total_balance` of `GET /api/user/me`,
 * USD) fell below a threshold. One request per poll. The balance is a level,
 * not a list of events: the trigger emits one item when a poll finds the
 * balance below the threshold and the state before it did not (a crossing),
 * and nothing more while it stays below; a poll that finds it at or above the
 * threshold again (a top-up) arms it for the next crossing.
 *
 * n8n's default poller saves the state only when a poll emits (and at
 * activation): the arming by a top-up, which emits nothing, is not saved, and
 * the copy n8n reads back after a deactivation, a publish or a restart may
 * still say "below". So this process also keeps the last state it wrote for
 * each trigger, and a poll goes on from whichever of the two was written
 * later: a published version loses nothing. After a
 * restart only the saved copy is left; the balance only rises with a top-up,
 * so a balance still below the threshold but higher than that copy's was
 * topped up meanwhile and may have crossed again: it is emitted with
 * `after_restart: true` rather than lost. A top-up followed by a fall below
 * the saved balance, both while n8n was stopped (or before the first poll
 * after a restart), cannot be seen; with durable poll cursors (n8n 2.36+)
 * every poll is saved and nothing is lost.
 */

export const BALANCE_BELOW = 'balanceBelow';

/** SPEC: the user's `total_balance` is in USD. */
export const CURRENCY = 'USD';

/** The last state this process wrote, by trigger (workflow and node), with its threshold. */
const written = new Map<string, { threshold: number; watch: BalanceWatch }>();
let writes = 0;

/**
 * The state a poll goes on from: the saved copy, or the last state this
 * process wrote for the trigger when that is later; and whether it is the last
 * state written (no poll since can have been lost).
 */
function baseline(
	ctx: IPollFunctions,
	threshold: number,
	saved: BalanceWatch,
): { watch: BalanceWatch; current: boolean } {
	const mine = written.get(triggerKey(ctx));
	// (a state of an earlier process id: tests that play a restart)
	const ours = mine && mine.watch.stamp.startsWith(`${processId()}/`);
	if (!mine || !ours || mine.threshold !== threshold) return { watch: saved, current: false };
	if (mine.watch.stamp === saved.stamp) return { watch: saved, current: true };
	if (mine.watch.at >= saved.at) return { watch: mine.watch, current: true };
	return { watch: saved, current: false };
}

const PATH = '/api/user/me';

/** The Threshold parameter: a number in USD, refused before any request otherwise. */
function readThreshold(ctx: IPollFunctions): number {
	const value = ctx.getNodeParameter('balanceThreshold', 10) as unknown;
	const threshold = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Threshold (USD) must be a number, got "${String(value)}"`,
		);
	}
	return threshold;
}

/** The balance in the profile answer (a number, or a numeric string). */
function balanceOf(ctx: IPollFunctions, answer: unknown): number {
	const raw = unwrap(answer).total_balance;
	const balance = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof balance !== 'number' || !Number.isFinite(balance)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service's profile (GET ${PATH}) has no total_balance to compare, got ${JSON.stringify(raw ?? null)}`,
		);
	}
	return balance;
}

/** The state as saved, or undefined when it is not one of this event's. */
function known(saved: unknown): BalanceWatch | undefined {
	const state = saved as Partial<BalanceWatch> | undefined;
	if (!state || typeof state.balance !== 'number' || typeof state.below !== 'boolean') return;
	return {
		below: state.below,
		balance: state.balance,
		since: typeof state.since === 'string' ? state.since : null,
		at: typeof state.at === 'number' ? state.at : 0,
		stamp: String(state.stamp ?? ''),
	};
}

export const balanceBelow: PollEvent = {
	option: {
		name: 'Balance Below',
		action: 'On balance below',
		description:
			"The account's balance fell below the Threshold; one item per crossing, again after a top-up back to it or above. One request per poll.",
	},
	subtitle: 'Balance below',
	stateKey: 'balance',
	fields: [
		{
			displayName: 'Threshold (USD)',
			name: 'balanceThreshold',
			type: 'number',
			required: true,
			default: 10,
			typeOptions: { numberPrecision: 2 },
			description:
				'Emit an item when the balance falls below this amount; it is emitted once, and again only after the balance was back at or above it (a top-up)',
			displayOptions: { show: { event: [BALANCE_BELOW] } },
		},
	],
	read(ctx: IPollFunctions): EventRun {
		const threshold = readThreshold(ctx);
		const read = async () => balanceOf(ctx, await apiRequest.call(ctx, 'GET', PATH));
		const watch = (balance: number, since: string | null, at: number): BalanceWatch => {
			const state = {
				below: balance < threshold,
				balance,
				since: balance < threshold ? since : null,
				at,
				stamp: `${processId()}/${++writes}`,
			};
			written.set(triggerKey(ctx), { threshold, watch: state });
			return state;
		};
		const item = (balance: number, previous: number | null, since: string | null) => ({
			balance,
			threshold,
			previous_balance: previous,
			below: balance < threshold,
			below_since: since,
			currency: CURRENCY,
		});
		return {
			key: { threshold },
			// never thrown: the test read always has the balance
			nothingYet: 'The service answered no balance',
			async test() {
				const balance = await read();
				const since = balance < threshold ? new Date(getClock().now()).toISOString() : null;
				return [ctx.helpers.returnJsonArray([item(balance, null, since)])];
			},
			started: (state) => known(state.balance) !== undefined,
			async start(state, now) {
				const balance = await read();
				state.balance = watch(balance, new Date(now).toISOString(), now);
			},
			async poll(state, now) {
				const { watch: before, current } = baseline(
					ctx,
					threshold,
					known(state.balance) as BalanceWatch,
				);
				const balance = await read();
				const at = new Date(now).toISOString();
				if (balance >= threshold) {
					state.balance = watch(balance, null, now);
					return null;
				}
				if (!before.below) {
					state.balance = watch(balance, at, now);
					return emit(ctx, [item(balance, before.balance, at)]);
				}
				// still below: after a restart the saved copy may have lost a top-up
				const toppedUp = !current && balance > before.balance;
				state.balance = watch(balance, toppedUp ? at : before.since, now);
				if (!toppedUp) return null;
				return emit(ctx, [{ ...item(balance, before.balance, at), after_restart: true }]);
			},
		};
	},
};
