'use strict';
/**
 * Calls.
 *
 *   GET  /api/user/calls       paginated, filters status, type, phone_number, assistant_id, campaign_id, date_from, date_to
 *   GET  /api/user/calls/:id   bare call object; 404 {message: 'Call not found'}
 *   POST /api/user/make_call   {message, call_id, status: 'initiated'}
 *   DELETE /api/user/calls/:id {message: 'Call deleted successfully'}; removes the call with its transcript and
 *                              recording; 404 {message: 'Call not found or does not belong to the authenticated user'}
 */
const { Validator, INVALID, E164 } = require('../validate');
const { HttpError, intId } = require('../util');
const { nextId } = require('../state');
const { CALL_STATUSES, CALL_TYPES, makeCall } = require('../domain');
const { paginate, pageParams } = require('../pagination');

/** Validates date_from / date_to (YYYY-MM-DD) and returns a matcher for `YYYY-MM-DD HH:MM:SS` values. */
function validateDateRange(v) {
	const from = v.check('date_from', { type: 'date', nullable: true });
	const to = v.check('date_to', { type: 'date', nullable: true });
	if (from.ok && to.ok && from.value && to.value && to.value < from.value) {
		v.add('date_to', 'The date to must be a date after or equal to date from.');
	}
	return {
		from: from.value || null,
		to: to.value || null,
		includes(timestamp) {
			const day = timestamp.slice(0, 10);
			return (!from.value || day >= from.value) && (!to.value || day <= to.value);
		},
	};
}

function presentCall(state, call) {
	const assistant = state.assistants.find((a) => a.id === call.assistant_id);
	const campaign =
		call.campaign_id != null ? state.campaigns.find((c) => c.id === call.campaign_id) : null;
	return {
		id: call.id,
		assistant_name: assistant ? assistant.name : call.assistant_name,
		campaign_name: campaign ? campaign.name : null,
		type: call.type,
		duration: call.duration,
		assistant_phone_number: call.assistant_phone_number,
		client_phone_number: call.client_phone_number,
		status: call.status,
		transcript: call.transcript,
		variables: call.variables,
		evaluation: call.evaluation,
		webhook_response: call.webhook_response,
		carrier_cost: call.carrier_cost,
		total_cost: call.total_cost,
		answered_by: call.answered_by,
		recording_url: call.recording_url,
		created_at: call.created_at,
		updated_at: call.updated_at,
	};
}

function register(router) {
	router.get('/api/user/calls', (ctx) => {
		const { state, query } = ctx;
		const v = new Validator(query, INVALID);
		const status = v.check('status', { type: 'string', nullable: true, in: CALL_STATUSES });
		const type = v.check('type', { type: 'string', nullable: true, in: CALL_TYPES });
		const phone = v.check('phone_number', { type: 'string', nullable: true });
		const assistantId = v.check('assistant_id', { type: 'integer', nullable: true });
		const campaignId = v.check('campaign_id', { type: 'integer', nullable: true });
		const range = validateDateRange(v);
		const p = pageParams(v, query);
		v.throwIfFailed();
		const items = state.calls
			.filter(
				(c) =>
					(!status.value || c.status === status.value) &&
					(!type.value || c.type === type.value) &&
					(!phone.value || (c.client_phone_number || '').includes(phone.value.trim())) &&
					(assistantId.value == null || c.assistant_id === assistantId.value) &&
					(campaignId.value == null || c.campaign_id === campaignId.value) &&
					range.includes(c.created_at),
			)
			.sort((a, b) => b.created_ms - a.created_ms || b.id - a.id);
		return { status: 200, body: paginate(ctx, items, p, (c) => presentCall(state, c)) };
	});

	router.get('/api/user/calls/:id', ({ state, params }) => {
		const id = intId(params.id);
		const call = id === null ? null : state.calls.find((c) => c.id === id);
		if (!call) throw new HttpError(404, { message: 'Call not found' });
		return { status: 200, body: presentCall(state, call) };
	});

	router.delete('/api/user/calls/:id', ({ state, params }) => {
		const id = intId(params.id);
		const index = id === null ? -1 : state.calls.findIndex((c) => c.id === id);
		if (index < 0)
			throw new HttpError(404, {
				message: 'Call not found or does not belong to the authenticated user',
			});
		state.calls.splice(index, 1);
		return { status: 200, body: { message: 'Call deleted successfully' } };
	});

	router.post('/api/user/make_call', ({ state, body }) => {
		const v = new Validator(body, INVALID);
		const assistantId = v.check('assistant_id', { required: true, type: 'integer' });
		const phone = v.check('phone_number', { required: true, type: 'string' });
		const variables = v.check('variables', { type: 'object', nullable: true });
		v.throwIfFailed();
		if (!E164.test(phone.value)) {
			throw new HttpError(400, {
				message: 'Invalid phone number format. Please use E.164 format (e.g. +1234567890)',
			});
		}
		const assistant = state.assistants.find((a) => a.id === assistantId.value);
		if (!assistant) {
			throw new HttpError(404, {
				message: 'Assistant not found or does not belong to the authenticated user',
			});
		}
		if (assistant.type !== 'outbound') {
			throw new HttpError(400, { message: 'Only outbound assistants can make calls.' });
		}
		if (state.user.total_balance < 0.01) {
			throw new HttpError(422, {
				message: 'Insufficient balance to make call. Please top up your account.',
			});
		}
		const call = makeCall(state, {
			id: nextId(state, 'calls'),
			assistant,
			type: 'outbound',
			status: 'initiated',
			duration: 0,
			customer_phone: phone.value,
			input_variables: variables.value || {},
			created_ms: Date.now(),
		});
		state.calls.push(call);
		return {
			status: 200,
			body: { message: 'Call initiated successfully', call_id: call.id, status: 'initiated' },
		};
	});
}

module.exports = { register, presentCall, validateDateRange };
