import type { ITriggerFunctions } from 'n8n-workflow';

import { readToolRegistrations } from './midCallTool';
import { addTool, readAssistantTools } from './toolIds';

/**
 * The mid-call tool's round of the heartbeat (calls/heartbeat.ts): another
 * write of an assistant's `tool_ids` (the dashboard, another workflow, an API
 * call) can drop this node's tool; each round reads the assistants the tool
 * was added to and adds it again where it is missing, keeping the other
 * tools. Test listeners' tools (n8n's test URL) are left alone.
 */

const LOG = 'Voice Chat Assistant Trigger:';

/** One round; answers how many assistants got the tool back. */
export async function reattachTools(ctx: ITriggerFunctions): Promise<number> {
	const registrations = readToolRegistrations(ctx.getWorkflowStaticData('node')).filter(
		(registration) => !registration.webhookUrl.includes('/webhook-test/'),
	);
	let added = 0;
	for (const { toolId, attached } of registrations) {
		if (attached.length === 0) continue;
		try {
			const states = await readAssistantTools(ctx, attached);
			for (const assistantId of attached) {
				const state = states.get(assistantId);
				if (!state?.found || !state.toolIds || state.toolIds.includes(toolId)) continue;
				ctx.logger.info(
					`${LOG} mid-call tool ${toolId} was no longer among assistant ${assistantId}'s tools (another change of its tools dropped it); adding it again`,
				);
				await addTool(ctx, assistantId, toolId, state.toolIds);
				added++;
			}
		} catch (error) {
			ctx.logger.warn(
				`${LOG} could not check that mid-call tool ${toolId} is still among its assistants' tools: ${(error as Error).message}; the next round tries again`,
			);
		}
	}
	return added;
}
