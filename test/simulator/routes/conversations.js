'use strict';
/**
 * Text conversations. `/api/conversations*` need no credential (SPEC); errors use
 * `{status: false, error}`.
 *
 *   POST /api/conversations                 {status, conversation_id, history}
 *   GET  /api/conversations/:uuid           {status, history}
 *   POST /api/conversations/:uuid/messages  {status, message, function_calls}
 *   GET  /api/user/conversations            paginated list (credential required)
 *   POST /api/automate/conversations/:uuid/disable-ai | enable-ai   {status, ai_enabled}
 *        (credential required; 401 {error: 'Unauthorized'}); while the AI is disabled a
 *        message is stored but not answered (and not charged)
 */
const { Validator, INVALID } = require('../validate');
const { HttpError, sqlTime, money, substitute } = require('../util');
const { CONVERSATION_TYPES, makeConversation } = require('../domain');
const { paginate, pageParams } = require('../pagination');
const { validateDateRange } = require('./calls');

const WIDGET_PRICE = 0.01;
const MIN_BALANCE = 0.01;
const INSUFFICIENT = 'Insufficient balance. Please top up your account.';

function fail(status, error) {
	return new HttpError(status, { status: false, error });
}

/** Validation of conversation operations in their own error shape: the first message wins. */
function conversationValidator(body) {
	const v = new Validator(body);
	v.throwIfFailed = function throwIfFailed() {
		if (this.failed) {
			const first = Object.values(this.errors)[0][0];
			throw fail(422, first);
		}
	};
	return v;
}

function conversationOr404(state, id) {
	const conv = state.conversations.find((c) => c.id === id);
	if (!conv) throw fail(404, 'Conversation not found');
	return conv;
}

function history(conv) {
	return conv.messages.map((m) => {
		const out = { role: m.role, content: m.content };
		if (m.function_calls && m.function_calls.length) out.function_calls = m.function_calls;
		return out;
	});
}

/** The simulated AI: a deterministic reply; a tool of the assistant named in the message is "called". */
function reply(state, assistant, conv, text) {
	const vars = { ...(assistant.variables || {}), ...(conv.variables || {}) };
	const calls = [];
	for (const id of assistant.tool_ids || []) {
		const tool = state.tools.find((t) => t.id === id);
		if (tool && text.toLowerCase().includes(tool.name)) {
			calls.push({
				name: tool.name,
				arguments: { query: text },
				result: { ok: true, simulated: true },
			});
		}
	}
	const who = vars.customer_name ? `, ${vars.customer_name}` : '';
	const content = calls.length
		? `I used ${calls.map((c) => c.name).join(', ')} for you${who}. Everything looks fine.`
		: `Thanks for your message${who}. You said: "${text}". (simulated reply by ${assistant.name})`;
	return { content, function_calls: calls };
}

function presentListItem(state, conv) {
	const assistant = state.assistants.find((a) => a.id === conv.assistant_id);
	return {
		id: conv.id,
		assistant_id: assistant ? assistant.uuid : null,
		assistant_name: assistant ? assistant.name : null,
		type: conv.type,
		variables: conv.variables,
		message_count: conv.messages.length,
		total_cost: conv.total_cost,
		ai_enabled: conv.ai_enabled,
		created_at: conv.created_at,
		updated_at: conv.updated_at,
	};
}

function register(router) {
	router.post('/api/conversations', ({ state, body }) => {
		const v = conversationValidator(body);
		// any value is looked up as a UUID: an unknown or non-UUID value is a 404, as SPEC says
		const assistantId = v.check('assistant_id', { required: true });
		const type = v.check('type', { type: 'string', nullable: true, in: ['widget', 'test'] });
		const variables = v.check('variables', { type: 'object', nullable: true });
		v.throwIfFailed();
		const assistant = state.assistants.find((a) => a.uuid === String(assistantId.value));
		if (!assistant) throw fail(404, 'Assistant not found');
		const convType = type.value || 'widget';
		if (convType === 'widget' && state.user.total_balance < MIN_BALANCE)
			throw fail(402, INSUFFICIENT);
		const now = Date.now();
		const vars = variables.value || {};
		const initial = substitute(assistant.initial_message, {
			...(assistant.variables || {}),
			...vars,
		});
		const conv = makeConversation(
			assistant,
			convType,
			{ variables: vars, messages: initial ? [{ role: 'assistant', content: initial }] : [] },
			{ createdMs: now },
		);
		state.conversations.push(conv);
		return {
			status: 200,
			body: { status: true, conversation_id: conv.id, history: history(conv) },
		};
	});

	router.get('/api/conversations/:uuid', ({ state, params }) => ({
		status: 200,
		body: { status: true, history: history(conversationOr404(state, params.uuid)) },
	}));

	router.post('/api/conversations/:uuid/messages', ({ state, params, body }) => {
		const conv = conversationOr404(state, params.uuid);
		const v = conversationValidator(body);
		const message = v.check('message', { required: true, type: 'string', max: 2000 });
		v.throwIfFailed();
		const assistant = state.assistants.find((a) => a.id === conv.assistant_id);
		if (!assistant) throw fail(404, 'Assistant not found');
		if (conv.ai_enabled === false) {
			// a human took over: the message is stored, nobody answers it automatically
			conv.messages.push({ role: 'user', content: message.value });
			conv.updated_at = sqlTime();
			return { status: 200, body: { status: true, message: null, function_calls: [] } };
		}
		if (conv.type === 'widget') {
			if (state.user.total_balance < MIN_BALANCE) throw fail(402, INSUFFICIENT);
			state.user.total_balance = money(state.user.total_balance - WIDGET_PRICE);
			conv.total_cost = money(conv.total_cost + WIDGET_PRICE);
		}
		const answer = reply(state, assistant, conv, message.value);
		conv.messages.push({ role: 'user', content: message.value });
		conv.messages.push({
			role: 'assistant',
			content: answer.content,
			function_calls: answer.function_calls,
		});
		conv.updated_at = sqlTime();
		return {
			status: 200,
			body: { status: true, message: answer.content, function_calls: answer.function_calls },
		};
	});

	for (const [action, enabled] of [
		['disable-ai', false],
		['enable-ai', true],
	]) {
		router.post(
			`/api/automate/conversations/:uuid/${action}`,
			({ state, headers, config, params }) => {
				// not under /api/user/: the credential is checked here, with this endpoint's own 401 shape
				const m = /^Bearer\s+(.+)$/i.exec(String(headers.authorization || '').trim());
				if (!m || m[1].trim() !== config.apiKey)
					throw new HttpError(401, { error: 'Unauthorized' });
				const conv = conversationOr404(state, params.uuid);
				if (!state.assistants.some((a) => a.id === conv.assistant_id))
					throw fail(404, 'Conversation not found');
				conv.ai_enabled = enabled;
				conv.updated_at = sqlTime();
				return { status: 200, body: { status: true, ai_enabled: enabled } };
			},
		);
	}

	router.get('/api/user/conversations', (ctx) => {
		const { state, query } = ctx;
		const v = new Validator(query, INVALID);
		const type = v.check('type', { type: 'string', nullable: true, in: CONVERSATION_TYPES });
		const assistantId = v.check('assistant_id', { type: 'integer', nullable: true });
		if (
			assistantId.ok &&
			assistantId.value != null &&
			!state.assistants.some((a) => a.id === assistantId.value)
		) {
			v.add('assistant_id', 'The selected assistant id is invalid.');
		}
		const range = validateDateRange(v);
		const p = pageParams(v, query);
		v.throwIfFailed();
		const own = new Set(state.assistants.map((a) => a.id));
		const items = state.conversations
			.filter(
				(c) =>
					own.has(c.assistant_id) &&
					(!type.value || c.type === type.value) &&
					(assistantId.value == null || c.assistant_id === assistantId.value) &&
					range.includes(c.created_at),
			)
			.sort((a, b) => b.created_ms - a.created_ms || (a.id < b.id ? 1 : -1));
		return { status: 200, body: paginate(ctx, items, p, (c) => presentListItem(state, c)) };
	});
}

module.exports = { register };
