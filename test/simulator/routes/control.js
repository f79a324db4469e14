'use strict';
/**
 * The control API under /__sim/ (no credential, no rate limit, no latency, not logged).
 *
 *   GET  /__sim/health               {status: 'ok', url}
 *   GET  /__sim/state                the whole state
 *   GET  /__sim/config               the current options
 *   POST /__sim/config               partial options → {config}
 *   GET  /__sim/log?since=N          request log entries from index N
 *   POST /__sim/log/clear            {cleared}
 *   POST /__sim/reset                back to the seed ({seed?: boolean} to change the seed option first)
 *   POST /__sim/user                 {name?, email?, total_balance?} → {user}
 *   POST /__sim/calls/seed           {count, assistant_id?, status?, type?, campaign_id?, days?} → {created, first_id, last_id, total}
 *   POST /__sim/calls/complete       completes a call and delivers the webhooks → {call, deliveries, skipped}
 *                                    (`redeliver: true` delivers once more, as when the service missed the answer)
 *   POST /__sim/faults               {method, path, rate, kinds, seed?, after?, times?, maxPerBody?} (or {clear: true}): injected failures
 *                                    (a path ending in `*` matches by prefix; `GET /__sim/recordings/*` fails the recordings)
 *   POST /__sim/calls/use-tool       a call uses a mid-call tool of an assistant: the tool's request is sent to
 *                                    its endpoint → {status, response, latency_ms, timed_out, ...} (state.toolCalls)
 *   POST /__sim/conversations/end    ends a chat and delivers the conversation-ended webhook → {payload, deliveries}
 *   GET  /__sim/recordings/:file     a few bytes of audio/mpeg (the calls' recording_url)
 *   GET  /__sim/recording-log?since=N  the requests for recordings from index N (origin, headers, carriesKey, status)
 */
const { Validator, INVALID } = require('../validate');
const { HttpError, has, isoSeconds, sqlTime, clone, uuid } = require('../util');
const { nextId } = require('../state');
const {
	CALL_STATUSES,
	CALL_TYPES,
	ENDED_STATUSES,
	UNSUCCESSFUL_CALL_STATUSES,
	makeCall,
} = require('../domain');
const { presentCall } = require('./calls');
const { deliverWithRetries } = require('../lifecycle');
const { deliver } = require('../webhooks');
const { FAULT_KINDS, faultRule } = require('../faults');

const SEED_STATUS_CYCLE = [
	'completed',
	'completed',
	'completed',
	'ended_by_customer',
	'no-answer',
	'completed',
	'busy',
	'ended_by_assistant',
	'failed',
	'completed',
];
const FAKE_MP3 = Buffer.from([
	0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfb, 0x90, 0x64, 0x00,
]);

function ok(body) {
	return { status: 200, body };
}

function findAssistantByAnyId(state, value) {
	if (value === undefined || value === null) return null;
	if (typeof value === 'number' || /^\d+$/.test(String(value)))
		return state.assistants.find((a) => a.id === Number(value)) || null;
	return state.assistants.find((a) => a.uuid === value) || null;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) to ISO 8601. */
function sqlToIso(text) {
	return typeof text === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)
		? `${text.replace(' ', 'T')}Z`
		: text;
}

function seedCalls(state, body) {
	const v = new Validator(body, INVALID);
	const count = v.check('count', { required: true, type: 'integer', min: 1, max: 200000 });
	const assistantId = v.check('assistant_id', { type: 'integer', nullable: true });
	const status = v.check('status', { type: 'string', nullable: true, in: CALL_STATUSES });
	const type = v.check('type', { type: 'string', nullable: true, in: CALL_TYPES });
	const campaignId = v.check('campaign_id', { type: 'integer', nullable: true });
	const days = v.check('days', { type: 'number', nullable: true, min: 0, max: 3650 });
	if (
		assistantId.ok &&
		assistantId.value != null &&
		!state.assistants.some((a) => a.id === assistantId.value)
	) {
		v.add('assistant_id', 'The selected assistant id is invalid.');
	}
	if (
		campaignId.ok &&
		campaignId.value != null &&
		!state.campaigns.some((c) => c.id === campaignId.value)
	) {
		v.add('campaign_id', 'The selected campaign id is invalid.');
	}
	v.throwIfFailed();
	const assistants =
		assistantId.value != null
			? state.assistants.filter((a) => a.id === assistantId.value)
			: state.assistants;
	const n = count.value;
	const spanMs = (days.value ?? 30) * 86400000;
	const now = Date.now();
	const firstId = state.nextIds.calls;
	for (let i = 0; i < n; i++) {
		const id = nextId(state, 'calls');
		const assistant = assistants.length ? assistants[i % assistants.length] : null;
		const callType =
			type.value ||
			(id % 10 === 0 ? 'web' : assistant && assistant.type === 'inbound' ? 'inbound' : 'outbound');
		state.calls.push(
			makeCall(state, {
				id,
				assistant,
				assistant_name: assistant ? undefined : 'Deleted assistant',
				type: callType,
				status: status.value || SEED_STATUS_CYCLE[id % SEED_STATUS_CYCLE.length],
				campaign_id: campaignId.value ?? (callType === 'outbound' && id % 3 === 0 ? 1 : null),
				created_ms: now - spanMs + Math.floor(((i + 1) * spanMs) / (n + 1)),
			}),
		);
	}
	return {
		created: n,
		first_id: firstId,
		last_id: state.nextIds.calls - 1,
		total: state.calls.length,
	};
}

async function completeCall(sim, state, body) {
	const v = new Validator(body, INVALID);
	const assistantRef = v.check('assistant_id', { required: !has(body, 'call_id') });
	const callId = v.check('call_id', { type: 'integer', nullable: true });
	const status = v.check('status', { type: 'string', nullable: true, in: CALL_STATUSES });
	const type = v.check('type', { type: 'string', nullable: true, in: CALL_TYPES });
	const format = v.check('transcript_format', {
		type: 'string',
		nullable: true,
		in: ['string', 'array'],
	});
	const customerPhone = v.check('customer_phone', { type: 'string', nullable: true });
	const duration = v.check('duration', { type: 'integer', nullable: true, min: 0 });
	const extracted = v.check('extracted_variables', { type: 'object', nullable: true });
	const input = v.check('input_variables', { type: 'object', nullable: true });
	const campaignId = v.check('campaign_id', { type: 'integer', nullable: true });
	const leadId = v.check('lead_id', { type: 'integer', nullable: true });
	const transcript = v.check('transcript', { type: 'string', nullable: true });
	const answeredBy = v.check('answered_by', {
		type: 'string',
		nullable: true,
		in: ['human', 'machine', 'unknown'],
	});
	const nest = v.check('nest_campaign_in_lead', { type: 'boolean', nullable: true });
	const redeliver = v.check('redeliver', { type: 'boolean', nullable: true });
	const endedAgo = v.check('ended_seconds_ago', { type: 'integer', nullable: true, min: 0 });
	v.throwIfFailed();

	const existing = callId.value != null ? state.calls.find((c) => c.id === callId.value) : null;
	if (callId.value != null && !existing) throw new HttpError(404, { message: 'Call not found' });
	const assistant = assistantRef.present
		? findAssistantByAnyId(state, assistantRef.value)
		: state.assistants.find((a) => a.id === existing.assistant_id) || null;
	if (!assistant) throw new HttpError(404, { message: 'Assistant not found' });

	let lead = leadId.value != null ? state.leads.find((l) => l.id === leadId.value) : null;
	if (leadId.value != null && !lead) throw new HttpError(404, { message: 'Lead not found' });
	const campaignRef =
		campaignId.value ?? (lead ? lead.campaign_id : existing ? existing.campaign_id : null);
	const campaign = campaignRef != null ? state.campaigns.find((c) => c.id === campaignRef) : null;
	if (campaignRef != null && !campaign) throw new HttpError(404, { message: 'Campaign not found' });
	const phone =
		customerPhone.value ||
		(existing && existing.client_phone_number) ||
		(lead && lead.phone_number) ||
		'+14155550199';
	if (!lead && campaign)
		lead =
			state.leads.find((l) => l.campaign_id === campaign.id && l.phone_number === phone) || null;

	const callStatus = status.value || 'completed';
	const seconds = duration.value ?? (ENDED_STATUSES.includes(callStatus) ? 95 : 0);
	// a call that ended a while ago (its delivery is posted now, as after an outage of the receiver)
	const now = Date.now() - (endedAgo.value ?? 0) * 1000;
	const id = existing ? existing.id : nextId(state, 'calls');
	const record = makeCall(state, {
		id,
		assistant,
		type: type.value || (existing ? existing.type : 'inbound'),
		status: callStatus,
		duration: seconds,
		customer_phone: phone,
		campaign_id: campaign ? campaign.id : null,
		lead_id: lead ? lead.id : null,
		extracted_variables: extracted.value || undefined,
		input_variables: input.value || (existing ? existing.input_variables : {}),
		transcript: transcript.value || undefined,
		answered_by: answeredBy.value || undefined,
		created_ms: existing ? existing.created_ms : now - seconds * 1000,
		updated_ms: now,
	});
	if (transcript.value) {
		record.transcript_items = transcript.value.split('\n').map((text, n) => ({
			text,
			type: 'transcript',
			sender: n % 2 === 0 ? 'bot' : 'human',
			timestamp: Math.round((record.created_ms / 1000 + n * 4.25) * 1e6) / 1e6,
		}));
	}
	let call = existing;
	if (existing) Object.assign(existing, record);
	else {
		state.calls.push(record);
		call = record;
	}

	const payload = {
		id: call.id,
		customer_phone: call.client_phone_number || null,
		assistant_phone: call.assistant_phone_number || null,
		duration: call.duration,
		status: call.status,
		extracted_variables: call.variables,
		input_variables: call.input_variables,
		transcript: (format.value || 'string') === 'array' ? call.transcript_items : call.transcript,
	};
	if (assistant.include_recording_in_webhook) payload.recording_url = call.recording_url;
	payload.created_at = isoSeconds(call.created_ms);
	payload.finished_at = isoSeconds(call.updated_ms);
	const leadPayload = lead
		? {
				id: lead.id,
				phone_number: lead.phone_number,
				variables: lead.variables,
				status: lead.status,
				created_at: sqlToIso(lead.created_at),
				updated_at: sqlToIso(lead.updated_at),
			}
		: null;
	const campaignPayload = campaign ? clone(campaign) : null;
	if (campaignPayload) delete campaignPayload.assistant_id;
	if (nest.value && leadPayload) {
		leadPayload.campaign = campaignPayload;
		payload.lead = leadPayload;
	} else {
		payload.lead = leadPayload;
		payload.campaign = campaignPayload;
	}

	const targets = [];
	const skipped = [];
	if (assistant.is_webhook_active && assistant.webhook_url) {
		if (
			assistant.send_webhook_only_on_completed &&
			UNSUCCESSFUL_CALL_STATUSES.includes(call.status)
		) {
			skipped.push({
				url: assistant.webhook_url,
				kind: 'post_call',
				reason: `send_webhook_only_on_completed and status ${call.status}`,
			});
		} else {
			targets.push({ url: assistant.webhook_url, kind: 'post_call' });
		}
	}
	if (assistant.inbound_webhook_url) {
		if (call.type === 'inbound')
			targets.push({ url: assistant.inbound_webhook_url, kind: 'inbound' });
		else
			skipped.push({
				url: assistant.inbound_webhook_url,
				kind: 'inbound',
				reason: `call type ${call.type}`,
			});
	}

	const deliveries = [];
	for (const target of targets) {
		const delivery = await deliverWithRetries(sim, {
			url: target.url,
			kind: target.kind,
			payload,
			record: { call_id: call.id },
			redeliver: redeliver.value === true,
		});
		deliveries.push(delivery);
	}
	const answered =
		deliveries.find((d) => d.kind === 'post_call' && d.status !== null) ||
		deliveries.find((d) => d.status !== null);
	if (sim.config.webhookResponseShape === 'wrapped' && deliveries.length) {
		// the answer with its status, or the failure, as a service may record it
		const first = answered || deliveries.find((d) => d.kind === 'post_call') || deliveries[0];
		call.webhook_response =
			first.status === null
				? { error: first.error || 'no answer: timed out' }
				: { status: first.status, body: first.response };
		call.updated_at = sqlTime(call.updated_ms);
	} else if (answered) {
		call.webhook_response = answered.response;
		call.updated_at = sqlTime(call.updated_ms);
	}
	return { call: presentCall(state, call), payload, deliveries, skipped };
}

/** Ends a chat: the conversation-ended payload (docs/triggers/conversation-ended-webhook.md) to the assistant's conversation-ended webhook. */
async function endConversation(sim, state, body) {
	const v = new Validator(body, INVALID);
	const conversationId = v.check('conversation_id', { type: 'string', nullable: true });
	const assistantRef = v.check('assistant_id', {});
	const type = v.check('type', { type: 'string', nullable: true, in: ['widget', 'whatsapp'] });
	const messages = v.check('messages', { type: 'array', nullable: true });
	const customerPhone = v.check('customer_phone', { type: 'string', nullable: true });
	const redeliver = v.check('redeliver', { type: 'boolean', nullable: true });
	v.throwIfFailed();
	const conv = conversationId.value
		? state.conversations.find((c) => c.id === conversationId.value)
		: null;
	if (conversationId.value && !conv)
		throw new HttpError(404, { message: 'Conversation not found' });
	const assistant = assistantRef.present
		? findAssistantByAnyId(state, assistantRef.value)
		: conv
			? state.assistants.find((a) => a.id === conv.assistant_id)
			: null;
	if (!assistant) throw new HttpError(404, { message: 'Assistant not found' });
	const now = Date.now();
	const lines =
		messages.value ||
		(conv
			? conv.messages
			: [
					{ role: 'assistant', content: assistant.initial_message || 'Hello!' },
					{ role: 'user', content: 'Thanks, that is all.' },
				]);
	const transcript = lines.map((m, n) => ({
		role: m.role,
		content: m.content,
		timestamp: new Date(now - (lines.length - n) * 5000).toISOString(),
		timestamp_unix: Math.floor((now - (lines.length - n) * 5000) / 1000),
	}));
	const deliveriesSoFar = (state.webhookDeliveries || []).filter(
		(d) => d.kind === 'conversation_ended',
	).length;
	const payload = {
		id: deliveriesSoFar + 1,
		conversation_id: conv ? conv.id : uuid(),
		assistant_id: assistant.uuid,
		type: type.value || (conv && conv.type === 'whatsapp' ? 'whatsapp' : 'widget'),
		message_count: transcript.length,
		status: 'ended',
		extracted_variables: {},
		input_variables: conv ? conv.variables : {},
		transcript,
		formatted_transcript: transcript
			.map((m) => `${m.role === 'user' ? 'Customer' : 'AI'}: ${m.content}`)
			.join('\n'),
		attachments: [],
		customer_phone: customerPhone.value || null,
		customer_name: null,
		sender: null,
		created_at: new Date(conv ? conv.created_ms : now - 60_000).toISOString(),
		ended_at: new Date(now).toISOString(),
	};
	const deliveries = [];
	if (assistant.conversation_ended_webhook_url) {
		deliveries.push(
			await deliverWithRetries(sim, {
				url: assistant.conversation_ended_webhook_url,
				kind: 'conversation_ended',
				payload,
				record: { conversation_id: payload.conversation_id },
				redeliver: redeliver.value === true,
			}),
		);
	}
	return { payload, deliveries };
}

/**
 * A simulated call uses a mid-call tool of an assistant: the request goes to the tool's endpoint
 * as the service sends it (the tool's method and headers, the arguments as JSON body, or as query
 * for GET and DELETE, the tool's timeout); the answer, its status, latency and a timeout are recorded
 * in `state.toolCalls` and returned.
 */
async function useTool(sim, state, body) {
	const v = new Validator(body, INVALID);
	const assistantRef = v.check('assistant_id', { required: true });
	const toolRef = v.check('tool', { required: true });
	const args = v.check('arguments', { type: 'object', nullable: true });
	v.throwIfFailed();
	const assistant = findAssistantByAnyId(state, assistantRef.value);
	if (!assistant) throw new HttpError(404, { message: 'Assistant not found' });
	const own = (assistant.tool_ids || [])
		.map((id) => state.tools.find((t) => t.id === id))
		.filter(Boolean);
	const ref = toolRef.value;
	const tool = own.find((t) =>
		typeof ref === 'number' || /^\d+$/.test(String(ref)) ? t.id === Number(ref) : t.name === ref,
	);
	if (!tool)
		throw new HttpError(404, {
			message: `The assistant has no mid call tool ${JSON.stringify(ref)}`,
		});
	const headers = {};
	for (const h of tool.headers || []) if (h && h.name) headers[h.name] = h.value;
	const timeoutMs = (tool.timeout || 10) * 1000;
	const started = Date.now();
	const result = await deliver(tool.endpoint, args.value || {}, {
		timeoutMs,
		headers,
		method: tool.method || 'POST',
	});
	const record = {
		id: (state.toolCalls || []).length + 1,
		assistant_id: assistant.id,
		tool_id: tool.id,
		tool: tool.name,
		method: tool.method || 'POST',
		url: tool.endpoint,
		arguments: clone(args.value || {}),
		status: result.status,
		response: result.response,
		latency_ms: Date.now() - started,
		timed_out: typeof result.error === 'string' && result.error.startsWith('timeout'),
		at: new Date(started).toISOString(),
	};
	if (result.error) record.error = result.error;
	(state.toolCalls = state.toolCalls || []).push(record);
	return record;
}

function register(router) {
	router.get('/__sim/health', ({ sim }) => ok({ status: 'ok', url: sim.url }));

	router.get('/__sim/state', ({ sim }) => ok(sim.state));

	router.get('/__sim/config', ({ sim }) => ok(sim.config));

	router.post('/__sim/config', ({ sim, body }) => {
		try {
			return ok({ config: sim.setConfig(body) });
		} catch (err) {
			throw new HttpError(422, { message: err.message });
		}
	});

	router.get('/__sim/log', ({ sim, query }) => {
		const since = /^\d+$/.test(query.since || '') ? Number(query.since) : 0;
		return ok(sim.log.slice(since));
	});

	router.post('/__sim/log/clear', ({ sim }) => ok({ cleared: sim.clearLog() }));

	router.get('/__sim/recording-log', ({ sim, query }) => {
		const since = /^\d+$/.test(query.since || '') ? Number(query.since) : 0;
		return ok(sim.recordingLog.slice(since));
	});

	router.post('/__sim/reset', ({ sim, body }) => {
		if (body && has(body, 'seed')) sim.setConfig({ seed: Boolean(body.seed) });
		sim.reset();
		return ok({ message: 'State reset', seed: sim.config.seed });
	});

	router.post('/__sim/user', ({ sim, body }) => {
		const v = new Validator(body, INVALID);
		const name = v.check('name', { type: 'string', max: 255 });
		const email = v.check('email', { type: 'string', max: 255 });
		const balance = v.check('total_balance', { type: 'number' });
		v.throwIfFailed();
		const user = sim.state.user;
		if (name.present) user.name = name.value;
		if (email.present) user.email = email.value;
		if (balance.present) user.total_balance = balance.value;
		return ok({ user });
	});

	router.post('/__sim/calls/seed', ({ sim, body }) => ok(seedCalls(sim.state, body)));

	router.post('/__sim/calls/complete', async ({ sim, body }) =>
		ok(await completeCall(sim, sim.state, body)),
	);

	router.post('/__sim/calls/use-tool', async ({ sim, body }) =>
		ok(await useTool(sim, sim.state, body)),
	);

	router.post('/__sim/faults', ({ sim, body }) => {
		if (body && body.clear) {
			sim.faults = [];
			return ok({ faults: [] });
		}
		const v = new Validator(body, INVALID);
		const method = v.check('method', {
			required: true,
			type: 'string',
			in: ['GET', 'POST', 'PUT', 'DELETE'],
		});
		const path = v.check('path', { required: true, type: 'string' });
		const rate = v.check('rate', { required: true, type: 'number', min: 0, max: 1 });
		const kinds = v.check('kinds', { required: true, type: 'array' });
		const seed = v.check('seed', { type: 'integer', nullable: true });
		const after = v.check('after', { type: 'integer', nullable: true, min: 0 });
		const times = v.check('times', { type: 'integer', nullable: true, min: 1 });
		const maxPerBody = v.check('maxPerBody', { type: 'integer', nullable: true, min: 0 });
		v.throwIfFailed();
		if (!kinds.value.length || kinds.value.some((k) => !FAULT_KINDS.includes(k)))
			throw new HttpError(422, { message: `kinds: any of ${FAULT_KINDS.join(', ')}` });
		const rule = faultRule({
			method: method.value,
			path: path.value,
			rate: rate.value,
			kinds: kinds.value,
			seed: seed.value,
			after: after.value,
			times: times.value,
			maxPerBody: maxPerBody.value,
		});
		sim.faults = [...(sim.faults || []), rule];
		return ok({ faults: sim.faults });
	});

	router.get('/__sim/faults', ({ sim }) => ok({ faults: sim.faults || [] }));

	router.post('/__sim/conversations/end', async ({ sim, body }) =>
		ok(await endConversation(sim, sim.state, body)),
	);

	router.get('/__sim/recordings/:file', () => ({
		status: 200,
		raw: FAKE_MP3,
		headers: { 'Content-Type': 'audio/mpeg' },
	}));
}

module.exports = { register, completeCall };
