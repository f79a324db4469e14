import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { transcriptText } from '../../VoiceChatAssistant/shared/transcript';

import { isObject } from '../../VoiceChatAssistant/transport';

/**
 * Reading what the service posts: the call payload (docs/api.md, section 4: id,
 * customer_phone, assistant_phone, duration, status, extracted_variables,
 * input_variables, transcript, recording_url, created_at, finished_at, lead,
 * campaign) and turning it into the trigger's item.
 */

/**
 * The payload as an object, or undefined when the body is not a JSON object
 * (no body, invalid JSON, an array, a string, a number, an empty object).
 * A body n8n left as text or bytes (a content type other than JSON) is parsed
 * here.
 */
export function parsePayload(body: unknown, rawBody?: unknown): IDataObject | undefined {
	let value: unknown = body;
	const empty =
		value === undefined ||
		value === null ||
		value === '' ||
		(isObject(value) && Object.keys(value).length === 0);
	if (empty && rawBody instanceof Uint8Array && rawBody.length > 0) {
		value = new TextDecoder().decode(rawBody);
	} else if (value instanceof Uint8Array) {
		value = new TextDecoder().decode(value);
	}
	if (typeof value === 'string') {
		const text = value.trim();
		if (!text.startsWith('{')) return undefined;
		try {
			value = JSON.parse(text);
		} catch {
			return undefined;
		}
	}
	if (!isObject(value) || Object.keys(value).length === 0) return undefined;
	return value;
}

/** The first value of a query parameter, when it was given exactly once. */
export function queryValue(query: unknown, name: string): string | undefined {
	if (!isObject(query)) return undefined;
	const value = query[name];
	return typeof value === 'string' ? value : undefined;
}

/** A numeric id as a number (identifiers of the service are integers), anything else as given. */
export function asId(value: unknown): number | string | null {
	if (value === undefined || value === null || value === '') return null;
	if (typeof value === 'number') return value;
	const text = String(value).trim();
	return /^\d+$/.test(text) ? Number(text) : text;
}

/**
 * What makes a delivery the same delivery: the call id, or the conversation id
 * with its end time (a chat that goes on after it ended may end again).
 */
export function deliveryKey(
	scope: string,
	event: string,
	payload: IDataObject,
): string | undefined {
	const conversation = payload.conversation_id;
	if (typeof conversation === 'string' && conversation) {
		return `${scope}|${event}|conversation:${conversation}|${String(payload.ended_at ?? '')}`;
	}
	const id = payload.id ?? payload.call_id;
	if (typeof id === 'number' || (typeof id === 'string' && id.trim() !== '')) {
		return `${scope}|${event}|call:${String(id)}`;
	}
	return undefined;
}

/** Whether the call's status passes the "Call Statuses" filter (empty: every status). */
export function statusAllowed(payload: IDataObject, statuses: unknown): boolean {
	if (!Array.isArray(statuses) || statuses.length === 0) return true;
	const status =
		typeof payload.status === 'string' ? payload.status.trim().toLowerCase() : undefined;
	if (status === undefined) return false;
	return statuses.some((s) => String(s).toLowerCase() === status);
}

/** The trigger's item: `event` and `assistant_id` first, the payload as received, then `transcript_text`. */
export function toItem(
	payload: IDataObject,
	event: string,
	assistantId: number | string | null,
): IDataObject {
	const item: IDataObject = { event, assistant_id: assistantId, ...payload };
	item.event = event;
	item.assistant_id = assistantId;
	item.transcript_text = transcriptText(payload.transcript);
	return item;
}

/** Writes the answer to the service and tells n8n that it is sent (with the items to start, if any). */
export function answer(
	ctx: IWebhookFunctions,
	statusCode: number,
	body: IDataObject,
	workflowData?: IWebhookResponseData['workflowData'],
): IWebhookResponseData {
	ctx.getResponseObject().status(statusCode).json(body);
	return workflowData ? { noWebhookResponse: true, workflowData } : { noWebhookResponse: true };
}
