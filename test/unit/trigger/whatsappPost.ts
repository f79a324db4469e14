/**
 * A read receipt of the "WhatsApp Message Status" event posted to the
 * trigger's webhook() as n8n hands it over: the exact bytes, n8n's parse of
 * them, the signature header, and the sender's signing secret in the node's
 * signing credential (or in the old node field, or nowhere); and the hook
 * context of its activation. Shared by
 * whatsappStatus.test.ts, whatsappSecret.test.ts and whatsappTime.test.ts.
 */
import * as crypto from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { SIGNATURE_HEADER } from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappStatus';
import { SIGNING_CREDENTIAL } from '../../../nodes/VoiceChatAssistantTrigger/whatsapp/whatsappSecret';
import { createHookContext, createWebhookContext, firstOutput } from '../../helpers/hookContext';
import { trigger } from '../../helpers/registeredTrigger';

export const SECRET = 'whsec_9fK2mQ7xL4pR8tV1';
export const EVENT = 'whatsappMessageStatus';

/** When the receipt below was written (its `timestamp`). */
export const RECEIPT_TIME = Date.parse('2026-11-26T08:00:00.000Z');
/** n8n's clock in the tests: the receipt's first delivery arrives 2 s after its `timestamp`. */
export const NOW = RECEIPT_TIME + 2_000;

/** The node's signing credential holding `secret` (for `otherCredentials`). */
export function signingCredential(secret: string = SECRET): Record<string, IDataObject> {
	return { [SIGNING_CREDENTIAL]: { signingSecret: secret } };
}

/** A read receipt as the service posts it. */
export function receipt(fields: IDataObject = {}): IDataObject {
	return {
		event: 'message_status',
		whatsapp_message_id: 4711,
		message_sid: 'SM0123456789abcdef0123456789abcdef',
		meta_message_id: 'wamid.HBgLNDkxNTExMjM0NTY3',
		conversation_id: '0d6f6c3e-8a1b-4a3c-9f55-2b1f0c9e7a11',
		assistant_id: '9b2f6c1e-4a70-4c55-8d1e-6f3a2b1c0d9e',
		sender: { id: 1, phone_number: '+4930555000100', display_name: 'Acme Support' },
		to: '+4915112345678',
		from: '+4930555000100',
		direction: 'outbound',
		status: 'read',
		error_code: null,
		error_message: null,
		error_description: null,
		timestamp: '2026-11-26T08:00:00.000Z',
		provider_timestamp: '2026-11-26T07:59:59.000Z',
		...fields,
	};
}

export function sign(bytes: Buffer, secret = SECRET): string {
	return `sha256=${crypto.createHmac('sha256', secret).update(bytes).digest('hex')}`;
}

export interface PostOptions {
	/** The exact bytes (default: compact JSON of the payload). */
	raw?: Buffer;
	/** What n8n's body parser made of them (default: JSON.parse of the bytes). */
	body?: unknown;
	/** The header value; null sends none; default: the right signature (under SECRET). */
	signature?: string | null;
	parameters?: IDataObject;
	/** The node's other credentials (default: the signing credential with SECRET; {} for none). */
	credentials?: Record<string, IDataObject>;
	mode?: 'webhook' | 'manual';
	workflowId?: string;
}

/** One post to the trigger: what it answered, the items it started, its logs. */
export async function post(payload: IDataObject, options: PostOptions = {}) {
	const raw = options.raw ?? Buffer.from(JSON.stringify(payload));
	const headers: IDataObject = { 'content-type': 'application/json' };
	const signature = options.signature === undefined ? sign(raw) : options.signature;
	if (signature !== null) headers[SIGNATURE_HEADER] = signature;
	const ctx = createWebhookContext({
		parameters: { event: EVENT, ...options.parameters },
		otherCredentials: options.credentials ?? signingCredential(),
		body: options.body ?? JSON.parse(raw.toString('utf8').replace(/^\ufeff/, '')),
		rawBody: raw,
		headers,
		mode: options.mode ?? 'webhook',
		workflowId: options.workflowId,
	});
	const result = await trigger.webhook.call(ctx.context);
	return { ...ctx, result, items: firstOutput(result.workflowData) };
}

/** The hook context of an activation (or removal) of the event, with the node's other credentials. */
export function activation(
	parameters: IDataObject = {},
	credentials: Record<string, IDataObject> = signingCredential(),
) {
	return createHookContext({
		parameters: { event: EVENT, ...parameters },
		otherCredentials: credentials,
	});
}

/** The warnings a post or an activation logged. */
export function warnings(logs: Array<{ level: string; message: string }>): string[] {
	return logs.filter((l) => l.level === 'warn').map((l) => l.message);
}
