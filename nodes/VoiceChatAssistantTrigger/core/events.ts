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

/** What sets one event of the call family apart: everything the family, the service's requests and the form ask of it. */
export interface CallEventSpec {
	/** Its entry in the form's Event picker. */
	option: { name: string; action: string; description: string };
	/** The assistant list's field that shows the event's URL. */
	listField: string;
	/**
	 * Its switch at the service when the event has one URL and no settings: enable with
	 * `{assistant_id, webhook_url}`, disable with `{assistant_id}`. Without: the assistant's own
	 * fields (`webhook_url`, `is_webhook_active` and the post-call settings) by the assistant update.
	 */
	switches?: { enable: string; disable: string };
	/** Whether its posts are calls: call statuses, recordings, the call list's check of a post, the catch-up of missed calls. */
	calls: boolean;
	/** Whether it carries the post-call settings (Only Completed Calls, Include Recording). */
	postCallSettings: boolean;
	/** The call list's `type` of its calls, when the event is one kind of call. */
	callType?: string;
}

/** The events of the call family (calls/family.ts), in the order of the Event picker: a webhook URL registered per assistant. */
export const CALL_EVENTS: Record<TriggerEvent, CallEventSpec> = {
	[INBOUND]: {
		option: {
			name: 'Inbound Call Completed',
			action: 'On inbound call completed',
			description:
				"An inbound call of the assistant ended (the service's inbound webhook, enabled per assistant)",
		},
		listField: 'inbound_webhook_url',
		switches: {
			enable: '/api/user/assistants/enable-inbound-webhook',
			disable: '/api/user/assistants/disable-inbound-webhook',
		},
		calls: true,
		postCallSettings: false,
		callType: 'inbound',
	},
	[CONVERSATION_ENDED]: {
		option: {
			name: 'Conversation Ended (Chat)',
			action: 'On conversation ended (chat)',
			description:
				"A widget or WhatsApp chat of the assistant ended after its inactivity timeout; the item holds the transcript (the assistant's conversation-ended webhook)",
		},
		listField: 'conversation_ended_webhook_url',
		switches: {
			enable: '/api/user/assistants/enable-conversation-ended-webhook',
			disable: '/api/user/assistants/disable-conversation-ended-webhook',
		},
		calls: false,
		postCallSettings: false,
	},
	[POST_CALL]: {
		option: {
			name: 'Call Completed (Post-Call Webhook)',
			action: 'On call completed (post-call webhook)',
			description:
				"Any call of the assistant ended: inbound, outbound and campaign calls (the assistant's post-call webhook)",
		},
		listField: 'webhook_url',
		calls: true,
		postCallSettings: true,
	},
};

/** The events of the call family, in the picker's order. */
export const CALL_AND_CHAT_EVENTS = Object.keys(CALL_EVENTS) as TriggerEvent[];

/** The call family's events whose spec passes `test` (for the form's `show` lists). */
export function callEventsWhere(test: (spec: CallEventSpec) => boolean): TriggerEvent[] {
	return CALL_AND_CHAT_EVENTS.filter((event) => test(CALL_EVENTS[event]));
}

/** Whether `event` is a call event of the call family (its calls are caught up; chats are not). */
export function isCallEvent(event: unknown): event is TriggerEvent {
	return (
		CALL_AND_CHAT_EVENTS.includes(event as TriggerEvent) && CALL_EVENTS[event as TriggerEvent].calls
	);
}

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
