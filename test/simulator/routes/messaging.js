'use strict';
/**
 * The messaging endpoints: SMS, WhatsApp and AI replies, from the vendor's API documentation
 * (Famulor: API → classic API). All need the credential (they are under /api/user/).
 *
 *   POST /api/user/sms                                      {message, data: {sms_id, from, to, body, segments, cost, currency, status}}
 *   GET  /api/user/whatsapp/senders                         {data: [sender]}; query status online (default) | all
 *   GET  /api/user/whatsapp/senders/:senderId/templates     {data: [template]}; query status approved (default) | all
 *   GET  /api/user/whatsapp/session-status                  {success, has_conversation, ..., session_status}
 *   POST /api/user/whatsapp/send                            template message {success, conversation_id, message_id, ...}
 *   POST /api/user/whatsapp/send-freeform                   free text inside the 24 h window
 *   POST /api/user/ai/generate-reply                        {success, conversation_id, customer_identifier, reply, function_calls, ai_disabled}
 *
 * Money: SMS 0.01 USD per segment to +1 numbers, 0.07 elsewhere; WhatsApp template 0.05
 * (marketing) or 0.02 (utility, authentication); freeform 0.005; AI reply 0.01. Every charge
 * is taken from state.user.total_balance (USD, so `currency` is USD) and recorded with the
 * message (state.smsMessages, state.whatsappMessages, the conversation's total_cost).
 *
 * Endpoint rate limits (only while the simulator's rate limiting is on): AI replies 5 per
 * minute, WhatsApp sends 5 per second; a 429 `{message: 'Too Many Attempts.', retry_after}`.
 */
const crypto = require('node:crypto');
const { Validator, INVALID } = require('../validate');
const { HttpError, iso, sqlTime, money, isPlainObject, intId } = require('../util');
const { makeConversation } = require('../domain');
const { nextId } = require('../state');

const E164 = /^\+[1-9]\d{6,14}$/;
const HOUR = 3600000;
const WINDOW_MS = 24 * HOUR;

const SMS_MAX = 300;
const FREEFORM_MAX = 4096;
const PRICES = {
	smsDomestic: 0.01,
	smsInternational: 0.07,
	templateMarketing: 0.05,
	templateOther: 0.02,
	freeform: 0.005,
	aiReply: 0.01,
};

/** The characters of the GSM 7-bit alphabet (one SMS segment holds 160 of them, else 70). */
const GSM =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€';

/** SMS segments of a text: 160/153 GSM characters, or 70/67 UCS-2 characters per segment. */
function segmentsOf(text) {
	const chars = [...text];
	const gsm = chars.every((c) => GSM.includes(c));
	const [single, multi] = gsm ? [160, 153] : [70, 67];
	if (chars.length <= single) return 1;
	return Math.ceil(chars.length / multi);
}

/** The service normalises numbers to E.164: separators dropped, 00 → +, a bare number gets a +. */
function normalisePhone(value) {
	if (typeof value !== 'string') return null;
	let phone = value.trim().replace(/[\s\-()./]/g, '');
	if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
	else if (/^[1-9]\d+$/.test(phone)) phone = `+${phone}`;
	return E164.test(phone) ? phone : null;
}

/** WhatsApp endpoints take E.164 as it is (surrounding blanks trimmed, as Laravel does). */
function whatsappPhone(value) {
	const phone = typeof value === 'string' ? value.trim() : '';
	return E164.test(phone) ? phone : null;
}

/** `{success: false, error, error_code}`: the WhatsApp and AI reply error shape. */
function failure(status, error, errorCode, extra) {
	return new HttpError(status, { success: false, error, error_code: errorCode, ...(extra || {}) });
}

/** Laravel's 422 whose message is the first error text (the AI reply endpoint). */
function firstErrorValidator(body) {
	const v = new Validator(body);
	v.throwIfFailed = function throwIfFailed() {
		if (this.failed) {
			throw new HttpError(422, { message: Object.values(this.errors)[0][0], errors: this.errors });
		}
	};
	return v;
}

/** Sliding windows of the endpoint rate limits, per state (a reset empties them). */
const endpointHits = new WeakMap();

function endpointLimit(ctx, name, limit, windowMs) {
	if (!ctx.config.rateLimit) return;
	let byName = endpointHits.get(ctx.state);
	if (!byName) endpointHits.set(ctx.state, (byName = {}));
	const now = Date.now();
	const hits = (byName[name] = (byName[name] || []).filter((t) => t > now - windowMs));
	if (hits.length >= limit) {
		const retryAfter = Math.max(1, Math.ceil((hits[hits.length - limit] + windowMs - now) / 1000));
		throw new HttpError(
			429,
			{ message: 'Too Many Attempts.', retry_after: retryAfter },
			{ 'Retry-After': String(retryAfter) },
		);
	}
	hits.push(now);
}

function charge(state, amount) {
	state.user.total_balance = money(state.user.total_balance - amount);
}

function presentSender(s) {
	return {
		id: s.id,
		phone_number: s.phone_number,
		display_name: s.display_name,
		status: s.status,
		quality_rating: s.quality_rating,
		messaging_limit: s.messaging_limit,
		messaging_limit_formatted: s.messaging_limit_formatted,
	};
}

function presentTemplate(t) {
	return {
		id: t.id,
		name: t.name,
		language: t.language,
		category: t.category,
		status: t.status,
		body_text: t.body_text,
		variables: t.variables,
		has_variables: t.variables.length > 0,
	};
}

function senderOr404(state, id) {
	const sender = id == null ? null : state.whatsappSenders.find((s) => s.id === id);
	if (!sender) throw failure(404, 'Sender not found', 'SENDER_NOT_FOUND');
	return sender;
}

function conversationWith(state, senderId, phone) {
	return state.whatsappConversations.find(
		(c) => c.sender_id === senderId && c.customer_phone === phone,
	);
}

/** The 24 h window after the customer's last message. */
function sessionStatus(conv, now = Date.now()) {
	const last =
		conv && conv.last_customer_message_at ? Date.parse(conv.last_customer_message_at) : NaN;
	if (Number.isNaN(last)) {
		return {
			is_open: false,
			can_send_freeform: false,
			requires_template: true,
			message: 'No message from this customer yet: send a template to start the conversation.',
		};
	}
	const expires = last + WINDOW_MS;
	if (expires > now) {
		return {
			is_open: true,
			can_send_freeform: true,
			requires_template: false,
			message: 'The 24-hour window is open: freeform messages can be sent.',
			minutes_remaining: Math.floor((expires - now) / 60000),
			expires_at: iso(expires),
		};
	}
	return {
		is_open: false,
		can_send_freeform: false,
		requires_template: true,
		message: 'The 24-hour window has expired: send a template message.',
		expired_at: iso(expires),
	};
}

/** A recorded outgoing WhatsApp message and its ids. */
function recordWhatsapp(state, conv, fields) {
	const id = nextId(state, 'whatsappMessages');
	const message = {
		id,
		whatsapp_message_id: id,
		message_sid: `SM${crypto.createHash('md5').update(`wa-${id}-${Date.now()}`).digest('hex')}`,
		conversation_id: conv.id,
		sender_id: conv.sender_id,
		to: conv.customer_phone,
		status: 'sent',
		created_at: iso(),
		...fields,
	};
	state.whatsappMessages.push(message);
	return message;
}

function openConversation(state, senderId, phone, name) {
	let conv = conversationWith(state, senderId, phone);
	if (!conv) {
		conv = {
			id: nextId(state, 'whatsappConversations'),
			sender_id: senderId,
			customer_phone: phone,
			customer_name: name || null,
			last_customer_message_at: null,
			created_at: iso(),
		};
		state.whatsappConversations.push(conv);
	} else if (name) {
		conv.customer_name = name;
	}
	return conv;
}

/** The template's text with its placeholders filled by position ("1") or by variable name. */
function renderTemplate(template, variables) {
	const missing = [];
	const text = template.body_text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n) => {
		const name = template.variables[Number(n) - 1];
		const value =
			variables[n] !== undefined ? variables[n] : name !== undefined ? variables[name] : undefined;
		if (value === undefined || value === null || value === '') {
			missing.push(name || n);
			return whole;
		}
		return String(value);
	});
	return { text, missing };
}

function register(router) {
	router.post('/api/user/sms', ({ state, body }) => {
		const v = new Validator(body, INVALID);
		const from = v.check('from', { required: true, type: 'integer' });
		const to = v.check('to', { required: true, type: 'string' });
		const text = v.check('body', { required: true, type: 'string', max: SMS_MAX });
		v.throwIfFailed();
		const number = state.phoneNumbers.find((p) => p.id === from.value);
		if (!number) throw new HttpError(400, { message: 'From number not found' });
		if (!number.sms_capable)
			throw new HttpError(400, { message: 'Phone number is not SMS-capable' });
		// the docs do not show this answer: a 400 like the others
		if (!number.has_active_subscription) {
			throw new HttpError(400, { message: 'Phone number subscription is not active' });
		}
		const recipient = normalisePhone(to.value);
		if (!recipient) throw new HttpError(400, { message: 'Invalid phone number format' });
		const segments = segmentsOf(text.value);
		const cost = money(
			segments * (recipient.startsWith('+1') ? PRICES.smsDomestic : PRICES.smsInternational),
		);
		if (state.user.total_balance < cost)
			throw new HttpError(400, { message: 'Insufficient balance to send SMS' });
		charge(state, cost);
		const sms = {
			sms_id: `sms_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`,
			from: number.phone_number,
			to: recipient,
			body: text.value,
			segments,
			cost,
			currency: 'USD',
			status: 'sent',
		};
		state.smsMessages.push({ ...sms, phone_number_id: number.id, created_at: iso() });
		return { status: 200, body: { message: 'SMS sent successfully', data: sms } };
	});

	router.get('/api/user/whatsapp/senders', ({ state, query }) => {
		const v = new Validator(query, INVALID);
		const status = v.check('status', { type: 'string', nullable: true, in: ['online', 'all'] });
		v.throwIfFailed();
		const all = status.value === 'all';
		const list = state.whatsappSenders.filter((s) => all || s.status === 'online');
		return { status: 200, body: { data: list.map(presentSender) } };
	});

	router.get('/api/user/whatsapp/senders/:senderId/templates', ({ state, params, query }) => {
		const sender = senderOr404(state, intId(params.senderId));
		const v = new Validator(query, INVALID);
		const status = v.check('status', { type: 'string', nullable: true, in: ['approved', 'all'] });
		v.throwIfFailed();
		const all = status.value === 'all';
		const list = state.whatsappTemplates.filter(
			(t) => t.sender_id === sender.id && (all || t.status === 'approved'),
		);
		return { status: 200, body: { data: list.map(presentTemplate) } };
	});

	router.get('/api/user/whatsapp/session-status', ({ state, query }) => {
		const v = new Validator(query, INVALID);
		const senderId = v.check('sender_id', { required: true, type: 'integer' });
		const phone = v.check('recipient_phone', { required: true, type: 'string' });
		v.throwIfFailed();
		const sender = senderOr404(state, senderId.value);
		// an unencoded "+" arrives as a space (and is trimmed away): the number is then not E.164
		const recipient = whatsappPhone(phone.value);
		if (!recipient) throw failure(422, 'Invalid phone number format', 'INVALID_PHONE');
		const conv = conversationWith(state, sender.id, recipient);
		if (!conv)
			return {
				status: 200,
				body: { success: true, has_conversation: false, session_status: sessionStatus(null) },
			};
		return {
			status: 200,
			body: {
				success: true,
				has_conversation: true,
				conversation_id: conv.id,
				customer_name: conv.customer_name,
				last_customer_message_at: conv.last_customer_message_at,
				session_status: sessionStatus(conv),
			},
		};
	});

	router.post('/api/user/whatsapp/send', (ctx) => {
		const { state, body } = ctx;
		endpointLimit(ctx, 'whatsapp-send', 5, 1000);
		const v = new Validator(body, INVALID);
		const senderId = v.check('sender_id', { required: true, type: 'integer' });
		const templateId = v.check('template_id', { required: true, type: 'integer' });
		const phone = v.check('recipient_phone', { required: true, type: 'string' });
		const name = v.check('recipient_name', { type: 'string', nullable: true, max: 255 });
		const variables = v.check('variables', { type: 'object', nullable: true });
		v.throwIfFailed();
		const sender = senderOr404(state, senderId.value);
		const template = state.whatsappTemplates.find(
			(t) => t.id === templateId.value && t.sender_id === sender.id,
		);
		if (!template) throw failure(404, 'Template not found', 'TEMPLATE_NOT_FOUND');
		if (sender.status !== 'online') throw failure(422, 'The sender is offline', 'SENDER_OFFLINE');
		if (template.status !== 'approved')
			throw failure(422, 'Template is not approved', 'TEMPLATE_NOT_APPROVED');
		const recipient = whatsappPhone(phone.value);
		if (!recipient) throw failure(422, 'Invalid phone number format', 'INVALID_PHONE');
		const vars = isPlainObject(variables.value) ? variables.value : {};
		const rendered = renderTemplate(template, vars);
		// not shown in the docs: the provider refuses a template with unfilled parameters
		if (rendered.missing.length) {
			throw failure(
				422,
				`Template variables missing: ${rendered.missing.join(', ')}`,
				'TWILIO_ERROR_63028',
			);
		}
		const price =
			template.category === 'marketing' ? PRICES.templateMarketing : PRICES.templateOther;
		if (state.user.total_balance < price)
			throw failure(402, 'Insufficient balance', 'INSUFFICIENT_BALANCE');
		charge(state, price);
		const conv = openConversation(state, sender.id, recipient, name.value);
		const message = recordWhatsapp(state, conv, {
			type: 'template',
			template_id: template.id,
			variables: vars,
			content: rendered.text,
			cost: price,
			status: 'queued',
		});
		return {
			status: 200,
			body: {
				success: true,
				conversation_id: conv.id,
				message_id: message.id,
				whatsapp_message_id: message.whatsapp_message_id,
				message_sid: message.message_sid,
				status: message.status,
			},
		};
	});

	router.post('/api/user/whatsapp/send-freeform', (ctx) => {
		const { state, body } = ctx;
		endpointLimit(ctx, 'whatsapp-send', 5, 1000);
		const v = new Validator(body, INVALID);
		const senderId = v.check('sender_id', { required: true, type: 'integer' });
		const phone = v.check('recipient_phone', { required: true, type: 'string' });
		const message = v.check('message', { required: true, type: 'string', max: FREEFORM_MAX });
		v.throwIfFailed();
		const sender = senderOr404(state, senderId.value);
		const recipient = whatsappPhone(phone.value);
		if (!recipient) throw failure(422, 'Invalid phone number format', 'INVALID_PHONE');
		// the freeform send answers an offline sender with 503 (the template send uses 422)
		if (sender.status !== 'online') throw failure(503, 'The sender is offline', 'SENDER_OFFLINE');
		const conv = conversationWith(state, sender.id, recipient);
		const session = sessionStatus(conv);
		if (!session.can_send_freeform) {
			throw failure(
				403,
				'The 24-hour session has expired. Send a template message instead.',
				'SESSION_EXPIRED',
				{
					session_status: session,
				},
			);
		}
		if (state.user.total_balance < PRICES.freeform)
			throw failure(402, 'Insufficient balance', 'INSUFFICIENT_BALANCE');
		charge(state, PRICES.freeform);
		const sent = recordWhatsapp(state, conv, {
			type: 'freeform',
			content: message.value,
			cost: PRICES.freeform,
		});
		return {
			status: 200,
			body: {
				success: true,
				conversation_id: conv.id,
				message_id: sent.id,
				whatsapp_message_id: sent.whatsapp_message_id,
				message_sid: sent.message_sid,
				session_status: session,
			},
		};
	});

	router.post('/api/user/ai/generate-reply', (ctx) => {
		const { state, body } = ctx;
		endpointLimit(ctx, 'ai-reply', 5, 60000);
		const v = firstErrorValidator(body);
		const assistantId = v.check('assistant_id', { required: true, type: 'integer' });
		const customer = v.check('customer_identifier', { required: true, type: 'string', max: 255 });
		const message = v.check('message', { required: true, type: 'string' });
		const variables = v.check('variables', { type: 'object', nullable: true });
		v.throwIfFailed();
		const assistant = state.assistants.find((a) => a.id === assistantId.value);
		if (!assistant)
			throw failure(404, 'Assistant not found or does not belong to you', 'ASSISTANT_NOT_FOUND');
		let conv = state.conversations.find(
			(c) =>
				c.type === 'api' &&
				c.assistant_id === assistant.id &&
				c.external_identifier === customer.value,
		);
		const aiEnabled = !conv || conv.ai_enabled !== false;
		if (aiEnabled && state.user.total_balance < PRICES.aiReply) {
			throw failure(
				402,
				'Insufficient balance. Please top up your account.',
				'INSUFFICIENT_BALANCE',
			);
		}
		const now = Date.now();
		if (!conv) {
			conv = makeConversation(
				assistant,
				'api',
				{ external_identifier: customer.value, variables: {}, messages: [] },
				{ createdMs: now },
			);
			state.conversations.push(conv);
		}
		if (isPlainObject(variables.value)) conv.variables = { ...conv.variables, ...variables.value };
		conv.messages.push({ role: 'user', content: message.value });
		conv.updated_at = sqlTime(now);
		let reply = null;
		if (aiEnabled) {
			const who = conv.variables.customer_name ? `, ${conv.variables.customer_name}` : '';
			reply = `Thanks for your message${who}. You said: "${message.value}". (simulated reply by ${assistant.name})`;
			conv.messages.push({ role: 'assistant', content: reply, function_calls: [] });
			charge(state, PRICES.aiReply);
			conv.total_cost = money(conv.total_cost + PRICES.aiReply);
		}
		return {
			status: 200,
			body: {
				success: true,
				conversation_id: conv.id,
				customer_identifier: customer.value,
				reply,
				function_calls: [],
				ai_disabled: !aiEnabled,
			},
		};
	});
}

module.exports = { register, segmentsOf, normalisePhone, PRICES };
