import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { INBOUND, isCallEvent, MID_CALL_TOOL } from '../core/events';
import { processSet } from '../core/memory';
import { reattachTools } from '../midCallTool/toolHeartbeat';
import { catchUp } from './catchUp';
import { noteHeartbeat } from './catchUpState';
import { readRegistration } from './world';

/**
 * The heartbeat: what the trigger does with no delivery. n8n starts a
 * node's trigger() on the one process that runs triggers (the main; the
 * leader with several mains) at every activation, at every start and when
 * another main takes the lead, and calls its closeFunction when the workflow
 * is deactivated, published again or n8n stops:
 *
 * - n8n 2.x: a node type with trigger() is an "in-memory" trigger
 *   (workflow-trigger-activator.js, getTriggerKinds); at a start the
 *   publication reconciler publishes again every active workflow whose
 *   in-memory triggers are not running (workflow-publication-reconciler
 *   .service.js, findMissingActiveWorkflows, reason "startup" → activation
 *   mode "init"), which registers the node's webhooks (checkExists, then
 *   create) and starts its trigger() side by side on one Workflow object.
 * - n8n 1.x: ActiveWorkflowManager.add registers the webhooks and starts the
 *   triggers at every activation and start (on the leader).
 * - Both: each `emit` saves the workflow's static data and starts one
 *   execution; the execution passes the item through the node's execute()
 *   (n8n runs execute() before trigger() and before the webhook's pass-through
 *   in WorkflowExecute.runNode), so a test delivery and a production one run
 *   as before.
 *
 * Every HEARTBEAT_MS (the first round HEARTBEAT_FIRST_MS after the start, the
 * second HEARTBEAT_SECOND_MS after the first), for each
 * assistant the trigger registered, it reads the calls that ended since the
 * catch-up watermark and starts each that reached no workflow in an execution
 * of its own (`caught_up: true`). While it runs in a process, the deliveries
 * there no longer catch up (calls/catchUp.ts), so every call is one execution.
 */

/** The first round after a start: the calls that ended meanwhile arrive by themselves. */
export const HEARTBEAT_FIRST_MS = 20_000;
/**
 * The second round: the calls the first left to their delivery (those that ended in the minute
 * before it, LEFT_TO_DELIVERY_MS) are a minute old by then.
 */
export const HEARTBEAT_SECOND_MS = 60_000;
/** Then one round every so often (one request per watched assistant, when nothing was missed). */
export const HEARTBEAT_MS = 2 * 60_000;
/** A mid-call tool's round (one read of the assistant list): its tool added again where it was dropped. */
export const TOOL_HEARTBEAT_MS = 5 * 60_000;
/** A stopped heartbeat notices within this time (n8n's sleep cannot be cancelled). */
const STEP_MS = 1_000;

const LOG = 'Voice Chat Assistant Trigger:';

/** The heartbeats running in this process, each until its loop ends (a closed one after its round). */
const loops = processSet<Promise<void>>();

/**
 * Resolves once every heartbeat of this process has ended: a closed heartbeat ends after the round
 * it was in. The tests wait on it between tests, so no round of one test writes into the next.
 */
export async function heartbeatsEnded(): Promise<void> {
	await Promise.all([...loops]);
}

/**
 * trigger(): starts the heartbeat of a call event (missed calls) or of a mid-call tool (its place
 * among the assistants' tools); chats, WhatsApp statuses and manual runs have none.
 */
export async function startHeartbeat(ctx: ITriggerFunctions): Promise<ITriggerResponse> {
	const event = ctx.getNodeParameter('event', INBOUND);
	const calls = isCallEvent(event);
	if (ctx.getMode() === 'manual' || (!calls && event !== MID_CALL_TOOL)) {
		return { closeFunction: async () => {} };
	}
	const clock = getClock();
	let stopped = false;
	// a delivery that taught the service's zone starts the next round at once (calls/catchUp.ts)
	let woken = false;
	if (calls) noteHeartbeat(ctx, true, () => (woken = true));
	const loop = (async () => {
		let wait = HEARTBEAT_FIRST_MS;
		for (let round = 1; !stopped; round++) {
			const until = clock.now() + wait;
			while (!stopped && !woken && clock.now() < until) {
				await clock.sleep(Math.min(STEP_MS, until - clock.now()));
			}
			if (stopped) break;
			woken = false;
			try {
				if (calls) await beat(ctx);
				else await reattachTools(ctx);
			} catch (error) {
				ctx.logger.warn(`${LOG} a heartbeat round failed: ${(error as Error).message}`);
			}
			wait = !calls ? TOOL_HEARTBEAT_MS : round === 1 ? HEARTBEAT_SECOND_MS : HEARTBEAT_MS;
		}
	})();
	loops.add(loop);
	void loop.finally(() => loops.delete(loop));
	return {
		closeFunction: async () => {
			stopped = true;
			if (calls) noteHeartbeat(ctx, false);
		},
	};
}

/**
 * One round: the missed calls of each registered assistant, each emitted as an
 * execution of its own, oldest first. A round that fails is logged; the next
 * one tries again from the same watermark.
 */
export async function beat(ctx: ITriggerFunctions): Promise<number> {
	const registration = readRegistration(ctx.getWorkflowStaticData('node'));
	// not registered (an activation that failed, or one still under way): nothing of ours to catch up
	if (!registration || !isCallEvent(registration.event)) return 0;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	let started = 0;
	for (const { id } of registration.assistants) {
		try {
			const items = await catchUp(
				ctx,
				{
					event: registration.event,
					assistantId: id,
					payload: {},
					registration,
					options,
					verified: false,
				},
				true,
			);
			for (const item of items) ctx.emit([[item]]);
			started += items.length;
		} catch (error) {
			ctx.logger.warn(
				`${LOG} the catch-up of assistant ${id} failed: ${(error as Error).message}; the next round tries again`,
			);
		}
	}
	return started;
}
