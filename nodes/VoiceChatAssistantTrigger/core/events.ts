import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isBlank, locatorValue, parseId } from '../../VoiceChatAssistant/shared/ids';

/*
 * The events of the webhook trigger and the assistants it watches: what every
 * event family reads from the form (calls/, midCallTool/; whatsapp/ has its
 * own event name in whatsapp/whatsappStatus.ts).
 */

export const INBOUND = 'inboundCallCompleted';
export const POST_CALL = 'callCompleted';
export const CONVERSATION_ENDED = 'conversationEnded';
/** The mid-call tool event: registered as a tool of the service, not as a webhook (midCallTool/midCallTool.ts). */
export const MID_CALL_TOOL = 'midCallTool';
export type TriggerEvent = typeof INBOUND | typeof POST_CALL | typeof CONVERSATION_ENDED;
/** The events of the call family (calls/family.ts): a webhook URL registered per assistant. */
export const CALL_AND_CHAT_EVENTS: string[] = [INBOUND, CONVERSATION_ENDED, POST_CALL];

function parseAssistantId(node: INode, value: unknown, where: string): number | undefined {
	const raw = locatorValue(value);
	if (isBlank(raw)) return undefined;
	const id = parseId(raw);
	if (id === undefined) {
		throw new NodeOperationError(
			node,
			`${where} must be a numeric assistant ID, got ${JSON.stringify(raw)}`,
			{
				description: 'Pick the assistant from the list, or enter its numeric ID (e.g. 42).',
			},
		);
	}
	return id;
}

/** The assistants the node watches: the main one and any additional ones, without repeats. */
export function readAssistantIds(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter'>,
): number[] {
	const node = ctx.getNode();
	const ids: number[] = [];
	const main = parseAssistantId(node, ctx.getNodeParameter('assistantId', ''), 'Assistant');
	if (main !== undefined) ids.push(main);
	const additional = ctx.getNodeParameter('additionalAssistants', {}) as IDataObject;
	const entries = Array.isArray(additional?.assistant)
		? (additional.assistant as IDataObject[])
		: [];
	entries.forEach((entry, index) => {
		const id = parseAssistantId(node, entry?.assistantId, `Additional assistant ${index + 1}`);
		if (id !== undefined && !ids.includes(id)) ids.push(id);
	});
	if (ids.length === 0) {
		throw new NodeOperationError(node, 'No assistant chosen', {
			description: 'Choose the assistant whose calls start this workflow.',
		});
	}
	return ids;
}
