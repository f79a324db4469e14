'use strict';
/**
 * The read-receipts webhook of a WhatsApp sender, as the service posts it: one JSON POST per
 * status change of a sent message, signed with `X-Signature-256: sha256=<hex HMAC-SHA256 of the
 * exact bytes of the body>` under the sender's signing secret, again after each of the
 * configured delays (`redeliveryDelaysMs`; the service waits 30, 60 and 120 s) while the answer
 * is a 5xx, a 429 or no answer at all. A 4xx is not retried.
 *
 *   POST /__sim/whatsapp/status   {url, status, secret?, message_id?, sender_id?, test?, unsigned?,
 *                                  wrongSignature?, format?, redeliver?, error_code?, display_name?,
 *                                  age_seconds?}
 *                                 → {payload, body, signature, delivery, redelivery?}
 *
 * The dashboard is where a sender's URL and secret are set, so the control call names both.
 * `message_id` picks a sent message (state.whatsappMessages, its id or message_sid); without it
 * the status is about a message of sender 1 (or `sender_id`) to a made-up number.
 * `format`: `compact` (JSON.stringify), `pretty` (indented, keys in another order) or `escaped`
 * (as PHP writes JSON: `/` as `\/`, every non-ASCII character as a \u escape): each is signed as sent, so a receiver that checks a
 * re-serialised body instead of the bytes fails on `pretty` and `escaped`.
 * `redeliver: true` posts the same bytes once more right after a 2xx answer (as when the service
 * missed the answer). `age_seconds` dates the status that long ago (its `timestamp`; negative: ahead),
 * as a post captured and played back later, or from a service whose clock is off; the post is
 * signed as ever. Every attempt is recorded in state.webhookDeliveries with kind `message_status`.
 */
const crypto = require('node:crypto');
const { Validator, INVALID } = require('../validate');
const { HttpError, iso, uuid } = require('../util');
const { postBytes } = require('../webhooks');

const STATUSES = ['sent', 'delivered', 'read', 'failed', 'undelivered'];
const FORMATS = ['compact', 'pretty', 'escaped'];
const FAILURE = {
	failed: {
		error_code: '131026',
		error_message: 'Message undeliverable',
		error_description: 'The recipient cannot receive WhatsApp messages.',
	},
	undelivered: {
		error_code: '30008',
		error_message: 'Unknown error',
		error_description: 'The carrier did not deliver the message.',
	},
};

/** The body's bytes in the chosen format. */
function serialise(payload, format) {
	if (format === 'pretty') {
		// the same fields, another key order and whitespace
		const reordered = {};
		for (const key of Object.keys(payload).reverse()) reordered[key] = payload[key];
		return Buffer.from(JSON.stringify(reordered, null, 2), 'utf8');
	}
	const text = JSON.stringify(payload);
	if (format === 'escaped') {
		// as PHP's json_encode writes it: slashes and non-ASCII characters escaped
		return Buffer.from(
			text
				.replace(/\//g, '\\/')
				.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
			'utf8',
		);
	}
	return Buffer.from(text, 'utf8');
}

/** `sha256=<hex>` of the body under the secret. */
function signatureOf(body, secret) {
	return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Whether the service posts again after this answer: 5xx, 429 or no answer. */
function retried(status) {
	return status === null || status === 429 || status >= 500;
}

/** A new id for a made-up message (one per post without `message_id`). */
function madeUpId(state) {
	state.whatsappStatusMadeUp = (state.whatsappStatusMadeUp || 0) + 1;
	return 900000 + state.whatsappStatusMadeUp;
}

/** The payload of one status change, for a sent message or a made-up one. */
function buildPayload(state, { message, senderId, status, test, errorCode, displayName, ageMs }) {
	const senders = state.whatsappSenders || [];
	const sender = senders.find((s) => s.id === (message ? message.sender_id : senderId));
	if (!sender) throw new HttpError(404, { message: 'Sender not found' });
	const assistant = (state.assistants || []).find((a) => a.id === sender.assistant_id);
	const conversation = message
		? (state.whatsappConversations || []).find((c) => c.id === message.conversation_id)
		: null;
	const now = Date.now() - ageMs;
	const failure = FAILURE[status] || null;
	const payload = {
		event: 'message_status',
		whatsapp_message_id: message ? message.whatsapp_message_id : madeUpId(state),
		message_sid: message ? message.message_sid : `SM${crypto.randomBytes(16).toString('hex')}`,
		meta_message_id: `wamid.${crypto.randomBytes(12).toString('base64url')}`,
		conversation_id: conversation ? conversation.uuid || uuid() : null,
		assistant_id: assistant ? assistant.uuid : null,
		sender: {
			id: sender.id,
			phone_number: sender.phone_number,
			display_name: displayName || sender.display_name,
		},
		to: message ? message.to : '+4915100000000',
		from: sender.phone_number,
		direction: 'outbound',
		status,
		error_code: failure ? errorCode || failure.error_code : null,
		error_message: failure ? failure.error_message : null,
		error_description: failure ? failure.error_description : null,
		timestamp: iso(now),
		provider_timestamp: iso(now - 1000),
	};
	if (test) payload.test = true;
	return payload;
}

async function postStatus(sim, state, body) {
	const v = new Validator(body, INVALID);
	const url = v.check('url', { required: true, type: 'url' });
	const status = v.check('status', { required: true, type: 'string', in: STATUSES });
	const secret = v.check('secret', { type: 'string', nullable: true });
	const messageId = v.check('message_id', {});
	const senderId = v.check('sender_id', { type: 'integer', nullable: true });
	const test = v.check('test', { type: 'boolean', nullable: true });
	const unsigned = v.check('unsigned', { type: 'boolean', nullable: true });
	const wrongSignature = v.check('wrongSignature', { type: 'boolean', nullable: true });
	const format = v.check('format', { type: 'string', nullable: true, in: FORMATS });
	const redeliver = v.check('redeliver', { type: 'boolean', nullable: true });
	const errorCode = v.check('error_code', { type: 'string', nullable: true });
	const displayName = v.check('display_name', { type: 'string', nullable: true });
	const ageSeconds = v.check('age_seconds', { type: 'number', nullable: true });
	v.throwIfFailed();
	if (!unsigned.value && !secret.value) {
		throw new HttpError(422, {
			message: INVALID,
			errors: { secret: ['The secret field is required unless unsigned is true.'] },
		});
	}
	let message = null;
	if (messageId.present && messageId.value !== null) {
		const ref = String(messageId.value);
		message =
			(state.whatsappMessages || []).find((m) => String(m.id) === ref || m.message_sid === ref) ||
			null;
		if (!message) throw new HttpError(404, { message: 'Message not found' });
	}
	const payload = buildPayload(state, {
		message,
		senderId: senderId.value || 1,
		status: status.value,
		test: test.value,
		errorCode: errorCode.value,
		displayName: displayName.value,
		ageMs: (ageSeconds.value || 0) * 1000,
	});
	const bytes = serialise(payload, format.value || 'compact');
	let signature = null;
	if (!unsigned.value) {
		// a wrong signature: the right length and form, made with another secret
		signature = signatureOf(
			bytes,
			wrongSignature.value ? `${secret.value}-not-the-secret` : secret.value,
		);
	}
	const headers = signature ? { 'X-Signature-256': signature } : {};
	const timeoutMs = sim.config.webhookTimeoutMs;
	const record = {
		url: url.value,
		kind: 'message_status',
		whatsapp_message_id: payload.whatsapp_message_id,
		signed: Boolean(signature),
	};
	const attempt = async (n) => {
		const result = await postBytes(url.value, bytes, headers, timeoutMs);
		const delivery = { attempt: n, status: result.status, response: result.response };
		if (result.error) delivery.error = result.error;
		(state.webhookDeliveries = state.webhookDeliveries || []).push({
			time: iso(),
			...record,
			...delivery,
			payload,
		});
		return delivery;
	};
	const delays = sim.config.redeliveryDelaysMs || [];
	const retry = (n) => {
		if (n - 1 > delays.length) return;
		sim.schedule(delays[n - 2], async () => {
			const again = await attempt(n);
			if (retried(again.status)) retry(n + 1);
		});
	};
	const first = await attempt(1);
	if (retried(first.status)) retry(2);
	const result = { payload, body: bytes.toString('utf8'), signature, delivery: first };
	// the service missed the answer: the same bytes once more, right away
	if (redeliver.value && first.status >= 200 && first.status < 300)
		result.redelivery = await attempt(2);
	return result;
}

function register(router) {
	router.post('/__sim/whatsapp/status', async ({ sim, body }) => ({
		status: 200,
		body: await postStatus(sim, sim.state, body),
	}));
}

module.exports = { register, signatureOf, serialise, STATUSES };
