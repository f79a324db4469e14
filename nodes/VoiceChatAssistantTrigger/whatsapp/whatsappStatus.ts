import {
	EARLIEST_OFFSET_MINUTES,
	LATEST_OFFSET_MINUTES,
	utcOffset,
} from '../../VoiceChatAssistant/transport/serviceTime';
import { createHmac, timingSafeEqual } from 'crypto';
import type {
	IDataObject,
	IHookFunctions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../VoiceChatAssistant/transport';
import { getClock } from '../../VoiceChatAssistant/transport/clock';
import { answer } from '../core/payload';
import { isReplay } from '../core/replays';
import { OLD_FIELD_WARNING, SIGNING_CREDENTIAL_NAME, readSigningSecret } from './whatsappSecret';
import { MAX_SIGNATURES, acceptedAt, rememberAccepted, signatureKey } from './whatsappSignatures';
import { MAX_AGE_MS, MAX_AHEAD_MS, duration, freshness } from './whatsappTime';
import { onRestart } from '../core/memory';

/**
 * The "WhatsApp Message Status" event: the service posts every status change
 * of a sent WhatsApp message (the read-receipts webhook of a sender) to a URL
 * set per sender in the dashboard. No operation of the API sets that URL, so
 * the node registers nothing: the user pastes n8n's URL and puts the
 * sender's signing secret into a credential (whatsappSecret.ts).
 *
 * Every post is signed: `X-Signature-256: sha256=<hex HMAC-SHA256 of the body>`
 * with the sender's signing secret. The HMAC is computed over the exact bytes
 * n8n received (its raw body), never over a body parsed and written again, and
 * compared in constant time. A post without a valid signature is answered 401
 * and starts nothing; the item is built from the same bytes that were verified.
 * A signed post is good only while its `timestamp` is recent (whatsappTime.ts);
 * one whose `timestamp` has no zone, once only (whatsappSignatures.ts). Its
 * fields in the form: fields.ts.
 */

export const WHATSAPP_STATUS = 'whatsappMessageStatus';

/** The signature header (n8n gives header names in lower case). */
export const SIGNATURE_HEADER = 'x-signature-256';

export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed', 'undelivered'] as const;

export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface WhatsappStatusSettings {
	statuses: MessageStatus[];
	/** Sender IDs and phone numbers (digits only), as given. */
	senders: string[];
	includeTestEvents: boolean;
}

const LOG = 'Voice Chat Assistant Trigger (WhatsApp Message Status):';

/** Digits of a phone number, without a leading international 00. */
function phoneDigits(value: string): string {
	const digits = value.replace(/\D/g, '');
	return value.trim().startsWith('00') ? digits.slice(2) : digits;
}

/** The event's form fields, checked field by field (no request is made; the secret: readSigningSecret). */
export function readWhatsappSettings(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter'>,
): WhatsappStatusSettings {
	const node = ctx.getNode();
	const rawStatuses = ctx.getNodeParameter('messageStatuses', []) as unknown;
	const statuses: MessageStatus[] = [];
	for (const value of Array.isArray(rawStatuses) ? rawStatuses : [rawStatuses]) {
		const status = String(value ?? '')
			.trim()
			.toLowerCase();
		if (status === '') continue;
		if (!(MESSAGE_STATUSES as readonly string[]).includes(status)) {
			throw new NodeOperationError(
				node,
				`Statuses: ${JSON.stringify(value)} is not a WhatsApp message status`,
				{ description: `Use ${MESSAGE_STATUSES.join(', ')}.` },
			);
		}
		if (!statuses.includes(status as MessageStatus)) statuses.push(status as MessageStatus);
	}
	const senders: string[] = [];
	for (const entry of String(ctx.getNodeParameter('senders', '') ?? '').split(/[,;\n]/)) {
		const text = entry.trim();
		if (text === '') continue;
		if (!/^\+?[\d\s\-().]+$/.test(text) || !/\d/.test(text)) {
			throw new NodeOperationError(
				node,
				`Senders: ${JSON.stringify(text)} is neither a sender ID nor a phone number`,
				{
					description:
						'Give the senders as phone numbers (e.g. +4930555000100) or sender IDs (e.g. 2), separated by commas.',
				},
			);
		}
		senders.push(text);
	}
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	return { statuses, senders, includeTestEvents: options?.includeTestEvents === true };
}

/**
 * Activation: nothing to register at the service; the form and the secret are
 * checked, so a missing credential or a bad field fails activation. A secret
 * still read from the old node field is warned about (never shown).
 */
export async function activateWhatsappStatus(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter' | 'getCredentials' | 'logger'>,
): Promise<void> {
	readWhatsappSettings(ctx);
	const { source } = await readSigningSecret(ctx);
	if (source === 'oldField') ctx.logger.warn(`${LOG} ${OLD_FIELD_WARNING}`);
}

/** Whether the signature header holds the HMAC-SHA256 of exactly these bytes under the secret. */
export function signatureValid(body: Uint8Array, header: unknown, secret: string): boolean {
	const given = Array.isArray(header) ? header[0] : header;
	if (typeof given !== 'string' || secret === '') return false;
	const match = /^sha256=([0-9a-f]{64})$/i.exec(given.trim());
	const expected = createHmac('sha256', secret).update(body).digest();
	// a malformed header is compared too (with a buffer of the right length), so it takes the same time
	const received = match ? Buffer.from(match[1], 'hex') : Buffer.alloc(expected.length);
	return timingSafeEqual(received, expected) && match !== null;
}

/** The exact bytes of the post: n8n's raw body (read now if n8n has not read it yet). */
async function rawBodyOf(ctx: IWebhookFunctions): Promise<Buffer | undefined> {
	const request = ctx.getRequestObject() as unknown as {
		rawBody?: unknown;
		readRawBody?: () => Promise<void>;
	};
	if (!(request.rawBody instanceof Uint8Array) && typeof request.readRawBody === 'function') {
		try {
			await request.readRawBody();
		} catch {
			return undefined;
		}
	}
	const raw = request.rawBody;
	return raw instanceof Uint8Array
		? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
		: undefined;
}

/** The JSON object of the verified bytes, or undefined. */
function parseVerified(raw: Buffer): IDataObject | undefined {
	let text = raw.toString('utf8');
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	try {
		const value: unknown = JSON.parse(text);
		return isObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The id of the message a post names (for logs and redeliveries). */
function messageRef(payload: IDataObject | undefined): string | undefined {
	if (!payload) return undefined;
	for (const name of ['whatsapp_message_id', 'message_sid', 'meta_message_id']) {
		const value = payload[name];
		if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) {
			return String(value).trim();
		}
	}
	return undefined;
}

/** Whether the post's sender is one of the chosen ones (by sender ID or phone number). */
function senderAllowed(payload: IDataObject, senders: string[]): boolean {
	if (senders.length === 0) return true;
	const sender = isObject(payload.sender) ? payload.sender : {};
	const ids = [sender.id].filter((v) => typeof v === 'number' || typeof v === 'string').map(String);
	const phones = [sender.phone_number, payload.from]
		.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
		.map(phoneDigits);
	return senders.some((entry) => {
		if (/^\d+$/.test(entry) && ids.includes(entry)) return true;
		const digits = phoneDigits(entry);
		return digits.length > 0 && phones.includes(digits);
	});
}

function ignored(
	ctx: IWebhookFunctions,
	reason: string,
	ref: string | undefined,
): IWebhookResponseData {
	ctx.logger.debug(`${LOG} message ${ref ?? 'without an id'} starts nothing: ${reason}`);
	return answer(ctx, 200, { received: true, ignored: true, reason });
}

/** When n8n's log last said that the memory of zone-less posts is full (once an hour at most). */
let fullWarnedAt = -Infinity;
onRestart(() => {
	fullWarnedAt = -Infinity;
});

/**
 * For a fresh post whose `timestamp` has no zone: the answer when the same
 * post (its signature) was accepted before (200 `duplicate` within the
 * service's retry span, 401 after it: a replay), else undefined, and the post
 * is remembered until no zone could make it fresh.
 */
function zonelessRepeat(
	ctx: IWebhookFunctions,
	key: string | undefined,
	freshUntil: number,
	ref: string | undefined,
): IWebhookResponseData | undefined {
	if (key === undefined) return undefined;
	const now = getClock().now();
	const first = acceptedAt(key, now);
	if (first !== undefined) {
		const since = now - first;
		if (since <= MAX_AGE_MS) {
			ctx.logger.debug(
				`${LOG} message ${ref ?? 'without an id'}: the same post was received ${duration(since)} ago; not started again`,
			);
			return answer(ctx, 200, { received: true, duplicate: true });
		}
		ctx.logger.warn(
			`${LOG} refused a signed post for message ${ref ?? 'without an id'} (answered 401): the same post was accepted ${duration(since)} ago, and the service sends a post again only within ${duration(MAX_AGE_MS)}: this is a replayed post. Its "timestamp" has no time zone, so this n8n process remembers the posts it accepted instead`,
		);
		return answer(ctx, 401, { message: 'Unauthorized: this post was received before' });
	}
	const forgotten = rememberAccepted(key, freshUntil, now);
	if (forgotten > 0 && now - fullWarnedAt >= 60 * 60_000) {
		fullWarnedAt = now;
		ctx.logger.warn(
			`${LOG} the memory of accepted posts whose "timestamp" has no time zone is full (${MAX_SIGNATURES} posts): the oldest are forgotten, and a copy of one of those could start the workflow again while its "timestamp" is recent in some zone`,
		);
	}
	return undefined;
}

/**
 * Answers one post: 401 without a valid signature or with a `timestamp`
 * outside the window (whatsappTime.ts), 400 when the verified body is not a
 * JSON object or has no readable `timestamp`, 500 when the node has no
 * secret, 200 without an execution when a filter or the test-event rule
 * leaves it out or it is a redelivery, else 200 and one item. A post whose
 * `timestamp` has no zone is fresh under any zone from UTC-12:00 to
 * UTC+14:00, and accepted once: its repeat is a redelivery (200) within the
 * retry span, a replay (401) after it.
 */
export async function whatsappStatusRequest(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	let settings: WhatsappStatusSettings;
	let secret: string;
	try {
		settings = readWhatsappSettings(ctx);
		secret = (await readSigningSecret(ctx)).secret;
	} catch (error) {
		const message = (error as Error).message;
		ctx.logger.warn(`${LOG} a status post was refused because the node is not set up: ${message}`);
		return answer(ctx, 500, { message: `The workflow is not set up: ${message}` });
	}
	const raw = await rawBodyOf(ctx);
	if (!raw) {
		// n8n handed over no bytes to verify: not the sender's fault, and a 5xx is retried
		ctx.logger.warn(`${LOG} a status post could not be read as received (answered 503)`);
		return answer(ctx, 503, { message: 'The post could not be read: send it again' });
	}
	const headers = (ctx.getHeaderData() ?? {}) as IDataObject;
	const header = headers[SIGNATURE_HEADER];
	if (!signatureValid(raw, header, secret)) {
		// the id as posted, not verified: only its harmless characters go to the log
		const ref = messageRef(parseVerified(raw))
			?.replace(/[^\w.:=+/-]/g, '')
			.slice(0, 80);
		const why =
			header === undefined ? 'it has no X-Signature-256 header' : 'its signature is wrong';
		ctx.logger.warn(
			`${LOG} refused a post for message ${ref ?? 'without an id'} (answered 401): ${why}; check that the node's "${SIGNING_CREDENTIAL_NAME}" credential holds this sender's signing secret`,
		);
		return answer(ctx, 401, { message: 'Unauthorized' });
	}
	const payload = parseVerified(raw);
	if (!payload) {
		ctx.logger.warn(`${LOG} a signed post is not a JSON object (answered 400)`);
		return answer(ctx, 400, { message: 'Bad request: the body must be a JSON object' });
	}
	const ref = messageRef(payload);
	// a signed post is good for the service's retries and a margin, not forever
	const time = freshness(payload.timestamp);
	if (!time.fresh) {
		const label = `${LOG} refused a signed post for message ${ref ?? 'without an id'}`;
		if (time.problem === 'unreadable') {
			const given = JSON.stringify(payload.timestamp ?? null).slice(0, 40);
			ctx.logger.warn(`${label} (answered 400): its "timestamp" ${given} is not a time`);
			return answer(ctx, 400, { message: 'Bad request: "timestamp" is missing or not a time' });
		}
		const old = time.problem === 'old';
		const off = `${duration(time.ageMs)} ${old ? 'old' : "ahead of this n8n's clock"}`;
		const given = time.zoneless
			? `${JSON.stringify(payload.timestamp).slice(0, 40)} has no time zone, and no zone from ${utcOffset(EARLIEST_OFFSET_MINUTES)} to ${utcOffset(LATEST_OFFSET_MINUTES)} makes it recent (read as ${new Date(time.at).toISOString()}, the nearest, it is ${off})`
			: `${new Date(time.at).toISOString()} is ${off}`;
		ctx.logger.warn(
			`${label} (answered 401): its "timestamp" ${given}. A post is accepted from ${duration(MAX_AGE_MS)} before to ${duration(MAX_AHEAD_MS)} after n8n's clock: this is a replayed post, or the clock of this n8n host or of the service is wrong`,
		);
		return answer(ctx, 401, {
			message: old
				? 'Unauthorized: "timestamp" is too old'
				: 'Unauthorized: "timestamp" is in the future',
		});
	}
	// a time without a zone is fresh under some zone for hours: the post itself (its signature) once only
	if ('zoneless' in time) {
		const refused = zonelessRepeat(ctx, signatureKey(header), time.freshUntil, ref);
		if (refused) return refused;
	}
	if (payload.event !== undefined && payload.event !== 'message_status') {
		return ignored(ctx, `event ${JSON.stringify(payload.event)} is not a message status`, ref);
	}
	const test = payload.test === true;
	const listening = ctx.getMode() === 'manual';
	if (test && !listening && !settings.includeTestEvents) {
		return ignored(
			ctx,
			'a test event of the dashboard (turn on "Include Dashboard Test Events" to receive it)',
			ref,
		);
	}
	const status = typeof payload.status === 'string' ? payload.status.trim().toLowerCase() : '';
	if (settings.statuses.length > 0 && !settings.statuses.includes(status as MessageStatus)) {
		return ignored(
			ctx,
			`status ${JSON.stringify(payload.status ?? null)} is not one this workflow listens to`,
			ref,
		);
	}
	if (!senderAllowed(payload, settings.senders)) {
		return ignored(ctx, 'the sender is not one this workflow listens to', ref);
	}
	// the service posts again after 30, 60 and 120 s when it missed the answer: one execution per status
	if (!listening && ref !== undefined) {
		const scope = `${ctx.getWorkflow().id}|${ctx.getNode().id}`;
		// a test event is told apart by its time too: the dashboard may reuse the message id
		const key = `${scope}|${WHATSAPP_STATUS}|message:${ref}|${status}${test ? `|${String(payload.timestamp ?? '')}` : ''}`;
		if (isReplay(key)) {
			ctx.logger.debug(`${LOG} message ${ref} (${status}) was received before; not started again`);
			return answer(ctx, 200, { received: true, duplicate: true });
		}
	}
	ctx.getResponseObject().status(200).json({ received: true });
	return {
		noWebhookResponse: true,
		workflowData: [[{ json: { ...payload, test } }]],
	};
}
