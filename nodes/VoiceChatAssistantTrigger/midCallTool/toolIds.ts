import type { IHookFunctions, ITriggerFunctions } from 'n8n-workflow';

import { isObject } from '../../VoiceChatAssistant/transport';
import { readListedAssistants, updateAssistant } from '../core/service';

/**
 * The mid-call tools of the assistants: read from the paginated assistant
 * list (which carries each assistant's whole configuration) and written back
 * whole (the assistant update replaces `tool_ids`). The heartbeat
 * (toolHeartbeat.ts) uses them as the hooks do.
 */

const LOG = 'Voice Chat Assistant Trigger:';

export interface ToolIdsState {
	found: boolean;
	/** The assistant's mid-call tool ids, or undefined when its record does not show them. */
	toolIds?: number[];
}

/** The ids in a `tool_ids` value (numbers, numeric strings or tool objects), or undefined when it is no list. */
function readToolIds(value: unknown): number[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const ids: number[] = [];
	for (const entry of value) {
		const raw = isObject(entry) ? entry.id : entry;
		const id = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
		if (!Number.isInteger(id) || id < 1) return undefined;
		if (!ids.includes(id)) ids.push(id);
	}
	return ids;
}

/** Each assistant's mid-call tool ids, read from the paginated assistant list. */
export async function readAssistantTools(
	ctx: IHookFunctions | ITriggerFunctions,
	assistantIds: number[],
): Promise<Map<number, ToolIdsState>> {
	const listed = await readListedAssistants(ctx, assistantIds, (item) =>
		readToolIds(item.tool_ids),
	);
	const states = new Map<number, ToolIdsState>();
	for (const id of assistantIds) {
		states.set(id, listed.has(id) ? { found: true, toolIds: listed.get(id) } : { found: false });
	}
	return states;
}

export async function setToolIds(
	ctx: IHookFunctions | ITriggerFunctions,
	assistantId: number,
	toolIds: number[],
): Promise<void> {
	await updateAssistant(ctx, assistantId, { tool_ids: toolIds });
}

/** How often a tool is added again when the assistant's list read back after the update lacks it. */
const ADD_ATTEMPTS = 3;

/**
 * Adds the tool to the assistant's list (`current` plus the tool), then reads
 * the list back: another workflow that read the list before this update and
 * wrote its own after it drops this tool, so it is added again to the list as
 * it is then, at most ADD_ATTEMPTS times. A write by another workflow that
 * lands after the last read-back is not seen here (the heartbeat adds it again
 * within minutes, toolHeartbeat.ts; toolCheckExists at the next start).
 */
export async function addTool(
	ctx: IHookFunctions | ITriggerFunctions,
	assistantId: number,
	toolId: number,
	current: number[],
): Promise<void> {
	let ids = current;
	for (let attempt = 1; ; attempt++) {
		await setToolIds(ctx, assistantId, [...ids, toolId]);
		const after = (await readAssistantTools(ctx, [assistantId])).get(assistantId);
		if (!after?.found || !after.toolIds || after.toolIds.includes(toolId)) return;
		if (attempt >= ADD_ATTEMPTS) {
			ctx.logger.warn(
				`${LOG} mid-call tool ${toolId} was dropped from assistant ${assistantId} ${ADD_ATTEMPTS} times by other changes of its tools; the trigger adds it again within 5 minutes`,
			);
			return;
		}
		ctx.logger.info(
			`${LOG} another change of assistant ${assistantId}'s tools dropped mid-call tool ${toolId}; adding it again`,
		);
		ids = after.toolIds;
	}
}
