'use strict';
/**
 * Leads and campaigns.
 *
 *   POST   /api/user/lead                    200 {message: 'Lead created successfully', data: lead}
 *   GET    /api/user/campaigns               {data: [campaign]}
 *   POST   /api/user/campaigns               201 {message, data: campaign (status draft)}; 422 validation,
 *                                            403 plan limit (CAMPAIGN_LIMIT), 404 assistant unknown or not outbound
 *   POST   /api/user/campaigns/update-status {message, success: true, data: {campaign_id, status}};
 *                                            errors {message, success: false} (400 action, 404, 400 balance, 400 no leads)
 *   DELETE /api/user/campaign/:id            {message}; deletes the campaign's leads; 404 {message: 'Campaign not found'}
 *   GET    /api/user/leads                   paginated; filters status, campaign_id, phone_number (partial), date_from, date_to
 *   PUT    /api/leads/:id                    {message: 'Lead successfully updated'}; campaign_id, phone_number, status,
 *                                            variables (merged); 404 {message: 'Lead not found'}. Not under /api/user/:
 *                                            the handler checks the Bearer key itself.
 *   DELETE /api/user/leads/:id               {message: 'Lead deleted successfully'}; 404 {message: 'Lead not found'}
 */
const { Validator, INVALID, E164 } = require('../validate');
const { HttpError, created, has, intId, iso, isPlainObject, sqlTime } = require('../util');
const { nextId } = require('../state');
const { paginate, pageParams } = require('../pagination');
const { validateDateRange } = require('./calls');

/** Campaigns the simulated plan allows. */
const CAMPAIGN_LIMIT = 10;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const LEAD_STATUSES = [
	'created',
	'scheduled',
	'processing',
	'completed',
	'rescheduled',
	'reached-max-retries',
	'blacklisted',
];
const SETTABLE_LEAD_STATUSES = ['created', 'completed', 'reached-max-retries'];
/** Lead statuses that still have calls to make (a campaign needs one to start). */
const CALLABLE_LEAD_STATUSES = ['created', 'scheduled', 'rescheduled'];
const HOUR_MINUTE = /^([01]\d|2[0-3]):[0-5]\d$/;

const E164_MESSAGE = (field) =>
	`The ${field.replace(/_/g, ' ')} must be a valid E.164 phone number (e.g. +14155552671).`;
const DUPLICATE = 'A lead with this phone number already exists in this campaign.';

function presentLead(state, lead) {
	const campaign = state.campaigns.find((c) => c.id === lead.campaign_id);
	return {
		id: lead.id,
		campaign_id: lead.campaign_id,
		phone_number: lead.phone_number,
		variables: lead.variables,
		status: lead.status,
		created_at: lead.created_at,
		updated_at: lead.updated_at,
		campaign: campaign ? { id: campaign.id, name: campaign.name } : null,
		secondary_contacts: lead.secondary_contacts.map((c) => ({ ...c })),
	};
}

function presentCampaign(c) {
	return {
		id: c.id,
		name: c.name,
		status: c.status,
		max_calls_in_parallel: c.max_calls_in_parallel ?? 3,
		mark_complete_when_no_leads: c.mark_complete_when_no_leads ?? true,
		allowed_hours_start_time: c.allowed_hours_start_time ?? '00:00:00',
		allowed_hours_end_time: c.allowed_hours_end_time ?? '23:59:00',
		allowed_days: c.allowed_days ?? [...WEEKDAYS],
		max_retries: c.max_retries ?? 3,
		retry_interval: c.retry_interval ?? 60,
		created_at: c.created_at,
		updated_at: c.updated_at,
	};
}

/** The fuller record the create answer carries. */
function presentCreatedCampaign(c) {
	return {
		...presentCampaign(c),
		assistant_id: c.assistant_id,
		timezone: c.timezone,
		retry_on_voicemail: c.retry_on_voicemail,
		retry_on_goal_incomplete: c.retry_on_goal_incomplete,
		goal_completion_variable: c.goal_completion_variable,
		phone_number_ids: c.phone_number_ids,
	};
}

/** `{message, success: false}` errors of update-status. */
function statusError(status, message, data) {
	return new HttpError(status, { message, success: false, ...(data ? { data } : {}) });
}

/** Bearer check of the routes outside /api/user/ (the server checks only /api/user/*). */
function authenticate({ headers, config }) {
	const m = /^Bearer\s+(.+)$/i.exec(String(headers.authorization || '').trim());
	if (!m || m[1].trim() !== config.apiKey)
		throw new HttpError(401, { message: 'Unauthenticated.' });
}

/** Removes the matching records in place (other modules keep references to the collections). */
function removeWhere(list, matches) {
	for (let i = list.length - 1; i >= 0; i--) if (matches(list[i])) list.splice(i, 1);
}

function findLead(state, params) {
	const id = intId(params.id);
	const lead = id === null ? null : state.leads.find((l) => l.id === id);
	if (!lead) throw new HttpError(404, { message: 'Lead not found' });
	return lead;
}

function validateCampaign(state, body) {
	const v = new Validator(body, INVALID);
	const name = v.check('name', { required: true, type: 'string', max: 255 });
	const assistantId = v.check('assistant_id', { required: true, type: 'integer' });
	const timezone = v.check('timezone', { type: 'string', nullable: true, timezone: true });
	const parallel = v.check('max_calls_in_parallel', {
		type: 'integer',
		nullable: true,
		min: 1,
		max: CAMPAIGN_LIMIT,
	});
	const start = v.check('allowed_hours_start_time', {
		type: 'string',
		nullable: true,
		regex: HOUR_MINUTE,
		messages: { regex: 'The allowed hours start time does not match the format H:i.' },
	});
	const end = v.check('allowed_hours_end_time', {
		type: 'string',
		nullable: true,
		regex: HOUR_MINUTE,
		messages: { regex: 'The allowed hours end time does not match the format H:i.' },
	});
	const days = v.check('allowed_days', { type: 'array', nullable: true });
	if (days.ok && Array.isArray(days.value)) {
		days.value.forEach((day, i) =>
			v.check(`allowed_days.${i}`, { type: 'string', in: WEEKDAYS }, day, true),
		);
	}
	const retries = v.check('max_retries', { type: 'integer', nullable: true, min: 1, max: 5 });
	const interval = v.check('retry_interval', {
		type: 'integer',
		nullable: true,
		min: 10,
		max: 4320,
	});
	const onVoicemail = v.check('retry_on_voicemail', { type: 'boolean', nullable: true });
	const onGoal = v.check('retry_on_goal_incomplete', { type: 'boolean', nullable: true });
	const goal = v.check('goal_completion_variable', { type: 'string', nullable: true, max: 255 });
	const markComplete = v.check('mark_complete_when_no_leads', { type: 'boolean', nullable: true });
	const phones = v.check('phone_number_ids', { type: 'array', nullable: true });
	const phoneIds = [];
	if (phones.ok && Array.isArray(phones.value)) {
		phones.value.forEach((raw, i) => {
			const field = `phone_number_ids.${i}`;
			const id = v.check(field, { type: 'integer' }, raw, true);
			if (!id.ok) return;
			if (phoneIds.includes(id.value)) v.add(field, `The ${field} field has a duplicate value.`);
			else if (!state.phoneNumbers.some((p) => p.id === id.value))
				v.add(field, `The selected ${field} is invalid.`);
			phoneIds.push(id.value);
		});
	}
	v.throwIfFailed();
	const hm = (value, fallback) => `${value || fallback}:00`;
	return {
		name: name.value,
		assistant_id: assistantId.value,
		timezone: timezone.value || 'UTC',
		max_calls_in_parallel: parallel.value ?? 3,
		allowed_hours_start_time: hm(start.value, '00:00'),
		allowed_hours_end_time: hm(end.value, '23:59'),
		allowed_days: days.value && days.value.length ? [...days.value] : [...WEEKDAYS],
		max_retries: retries.value ?? 3,
		retry_interval: interval.value ?? 60,
		retry_on_voicemail: onVoicemail.value ?? false,
		retry_on_goal_incomplete: onGoal.value ?? false,
		goal_completion_variable: goal.value ?? null,
		mark_complete_when_no_leads: markComplete.value ?? true,
		phone_number_ids: [...new Set(phoneIds)],
	};
}

function register(router) {
	router.get('/api/user/campaigns', ({ state }) => ({
		status: 200,
		body: { data: state.campaigns.map(presentCampaign) },
	}));

	router.post('/api/user/campaigns/update-status', ({ state, body }) => {
		const v = new Validator(body, INVALID);
		const id = v.check('campaign_id', { required: true, type: 'integer' });
		const action = v.check('action', { required: true, type: 'string' });
		v.throwIfFailed();
		if (!['start', 'stop'].includes(action.value))
			throw statusError(400, "Invalid action. Must be either 'start' or 'stop'.");
		const campaign = state.campaigns.find((c) => c.id === id.value);
		if (!campaign) throw statusError(404, 'Campaign not found.');
		if (campaign.user_id != null && campaign.user_id !== state.user.id) {
			throw statusError(403, 'Access denied - Campaign does not belong to authenticated user.');
		}
		if (action.value === 'start') {
			if (!(state.user.total_balance > 0)) {
				throw statusError(
					400,
					'Insufficient balance to start the campaign. Please top up your account.',
					{
						campaign_id: campaign.id,
						status: campaign.status,
					},
				);
			}
			// the service's answer for a campaign without leads to call is not documented: this one is the simulator's
			if (
				!state.leads.some(
					(l) => l.campaign_id === campaign.id && CALLABLE_LEAD_STATUSES.includes(l.status),
				)
			) {
				throw statusError(400, 'The campaign has no leads to call. Add leads before starting it.', {
					campaign_id: campaign.id,
					status: campaign.status,
				});
			}
		}
		campaign.status = action.value === 'start' ? 'in-progress' : 'stopped';
		campaign.updated_at = iso();
		(state.campaignStatusChanges = state.campaignStatusChanges || []).push({
			campaign_id: campaign.id,
			action: action.value,
			at: campaign.updated_at,
		});
		return {
			status: 200,
			body: {
				message:
					action.value === 'start'
						? 'Campaign started successfully.'
						: 'Campaign stopped successfully.',
				success: true,
				data: { campaign_id: campaign.id, status: campaign.status },
			},
		};
	});

	router.post('/api/user/campaigns', ({ state, body }) => {
		const values = validateCampaign(state, body);
		if (state.campaigns.length >= CAMPAIGN_LIMIT) {
			throw new HttpError(403, {
				message: `You have reached the maximum of ${CAMPAIGN_LIMIT} campaigns of your plan. Please upgrade your plan to create more campaigns.`,
			});
		}
		const assistant = state.assistants.find((a) => a.id === values.assistant_id);
		if (!assistant || assistant.type !== 'outbound') {
			throw new HttpError(404, { message: 'Assistant not found or not an outbound assistant.' });
		}
		const now = iso();
		const campaign = {
			id: nextId(state, 'campaigns'),
			status: 'draft',
			...values,
			created_at: now,
			updated_at: now,
		};
		state.campaigns.push(campaign);
		return created('Campaign created successfully', presentCreatedCampaign(campaign));
	});

	router.delete('/api/user/campaign/:id', ({ state, params }) => {
		const id = intId(params.id);
		const campaign = id === null ? null : state.campaigns.find((c) => c.id === id);
		if (!campaign) throw new HttpError(404, { message: 'Campaign not found' });
		// a running campaign is stopped first; its leads and phone number assignments go with it
		campaign.status = 'stopped';
		removeWhere(state.leads, (l) => l.campaign_id === campaign.id);
		removeWhere(state.campaigns, (c) => c.id === campaign.id);
		return { status: 200, body: { message: 'Campaign deleted successfully' } };
	});

	router.get('/api/user/leads', (ctx) => {
		const { state, query, config } = ctx;
		const v = new Validator(query, INVALID);
		const status = v.check('status', { type: 'string', nullable: true, in: LEAD_STATUSES });
		const campaignId = v.check('campaign_id', { type: 'integer', nullable: true });
		const phone = v.check('phone_number', { type: 'string', nullable: true });
		const range = validateDateRange(v);
		const p = pageParams(v, query);
		v.throwIfFailed();
		const items = state.leads.filter(
			(l) =>
				(!status.value || l.status === status.value) &&
				(campaignId.value == null || l.campaign_id === campaignId.value) &&
				(!phone.value || l.phone_number.includes(phone.value.trim())) &&
				range.includes(l.created_at),
		);
		// SPEC promises no order: newest first unless the simulator is told otherwise (the leads
		// are kept in id order: sorting 100,000 of them on every page would be the slow part)
		if (items.some((l, i) => i > 0 && items[i - 1].id > l.id)) items.sort((a, b) => a.id - b.id);
		if (config.leadOrder !== 'oldest') items.reverse();
		return { status: 200, body: paginate(ctx, items, p, (l) => presentLead(state, l)) };
	});

	router.put('/api/leads/:id', (ctx) => {
		authenticate(ctx);
		const { state, body, params } = ctx;
		const lead = findLead(state, params);
		const v = new Validator(body, INVALID);
		const campaignId = v.check('campaign_id', { type: 'integer', nullable: true });
		const phone = v.check('phone_number', { type: 'string', nullable: true });
		const status = v.check('status', {
			type: 'string',
			nullable: true,
			in: SETTABLE_LEAD_STATUSES,
		});
		const variables = v.check('variables', { type: 'object', nullable: true });
		if (
			campaignId.ok &&
			campaignId.value != null &&
			!state.campaigns.some((c) => c.id === campaignId.value)
		) {
			v.add('campaign_id', 'The selected campaign id is invalid.');
		}
		// the service normalises the number to E.164
		const normalised = phone.ok && phone.value ? phone.value.replace(/[\s\-().]/g, '') : null;
		if (normalised && !E164.test(normalised)) v.add('phone_number', E164_MESSAGE('phone_number'));
		v.throwIfFailed();
		// only the documented fields change; anything else in the body is ignored
		if (campaignId.value != null) lead.campaign_id = campaignId.value;
		if (normalised) lead.phone_number = normalised;
		if (status.value) lead.status = status.value;
		if (variables.value) lead.variables = { ...lead.variables, ...variables.value };
		lead.updated_at = sqlTime();
		return { status: 200, body: { message: 'Lead successfully updated' } };
	});

	router.delete('/api/user/leads/:id', ({ state, params }) => {
		const lead = findLead(state, params);
		removeWhere(state.leads, (l) => l.id === lead.id);
		return { status: 200, body: { message: 'Lead deleted successfully' } };
	});

	router.post('/api/user/lead', ({ state, body }) => {
		const v = new Validator(body, INVALID);
		const phone = v.check('phone_number', {
			required: true,
			type: 'string',
			e164: true,
			messages: { e164: E164_MESSAGE('phone_number') },
		});
		const campaignId = v.check('campaign_id', { required: true, type: 'integer' });
		const variables = v.check('variables', { type: 'object', nullable: true });
		const allowDuplicate = v.check('allow_dupplicate', { type: 'boolean', nullable: true });
		const secondary = v.check('secondary_contacts', { type: 'array', nullable: true });

		if (
			campaignId.ok &&
			campaignId.present &&
			!state.campaigns.some((c) => c.id === campaignId.value)
		) {
			v.add('campaign_id', 'The selected campaign id is invalid.');
		}
		const contacts = [];
		if (secondary.ok && Array.isArray(secondary.value)) {
			secondary.value.forEach((item, i) => {
				const p = `secondary_contacts.${i}`;
				if (!isPlainObject(item)) {
					v.add(p, `The ${p} must be an object.`);
					return;
				}
				const cPhone = v.check(
					`${p}.phone_number`,
					{
						required: true,
						type: 'string',
						e164: true,
						messages: { e164: E164_MESSAGE(`${p}.phone_number`) },
					},
					item.phone_number,
					has(item, 'phone_number'),
				);
				const cVars = v.check(
					`${p}.variables`,
					{ type: 'object', nullable: true },
					item.variables,
					has(item, 'variables'),
				);
				contacts.push({ phone_number: cPhone.value, variables: cVars.value || {} });
			});
		}
		if (
			phone.ok &&
			campaignId.ok &&
			!v.hasError('campaign_id') &&
			allowDuplicate.value !== true &&
			state.leads.some((l) => l.campaign_id === campaignId.value && l.phone_number === phone.value)
		) {
			v.add('phone_number', DUPLICATE);
		}
		v.throwIfFailed();

		const now = sqlTime();
		const lead = {
			id: nextId(state, 'leads'),
			campaign_id: campaignId.value,
			phone_number: phone.value,
			variables: variables.value || {},
			status: 'created',
			created_at: now,
			updated_at: now,
			secondary_contacts: contacts.map((c) => ({
				id: nextId(state, 'secondaryContacts'),
				phone_number: c.phone_number,
				variables: c.variables,
				status: 'created',
				created_at: now,
				updated_at: now,
			})),
		};
		state.leads.push(lead);
		return {
			status: 200,
			body: { message: 'Lead created successfully', data: presentLead(state, lead) },
		};
	});
}

module.exports = { register, presentLead, presentCampaign };
