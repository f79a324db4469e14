'use strict';
/**
 * Leads and campaigns.
 *
 *   POST /api/user/lead       200 {message: 'Lead created successfully', data: lead}
 *   GET  /api/user/campaigns  {data: [campaign]}
 */
const { Validator, INVALID } = require('../validate');
const { has, isPlainObject, sqlTime } = require('../util');
const { nextId } = require('../state');

const E164_MESSAGE = (field) => `The ${field.replace(/_/g, ' ')} must be a valid E.164 phone number (e.g. +14155552671).`;
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
	return { id: c.id, name: c.name, status: c.status, created_at: c.created_at, updated_at: c.updated_at };
}

function register(router) {
	router.get('/api/user/campaigns', ({ state }) => ({ status: 200, body: { data: state.campaigns.map(presentCampaign) } }));

	router.post('/api/user/lead', ({ state, body }) => {
		const v = new Validator(body, INVALID);
		const phone = v.check('phone_number', { required: true, type: 'string', e164: true, messages: { e164: E164_MESSAGE('phone_number') } });
		const campaignId = v.check('campaign_id', { required: true, type: 'integer' });
		const variables = v.check('variables', { type: 'object', nullable: true });
		const allowDuplicate = v.check('allow_dupplicate', { type: 'boolean', nullable: true });
		const secondary = v.check('secondary_contacts', { type: 'array', nullable: true });

		if (campaignId.ok && campaignId.present && !state.campaigns.some((c) => c.id === campaignId.value)) {
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
				const cPhone = v.check(`${p}.phone_number`, { required: true, type: 'string', e164: true, messages: { e164: E164_MESSAGE(`${p}.phone_number`) } }, item.phone_number, has(item, 'phone_number'));
				const cVars = v.check(`${p}.variables`, { type: 'object', nullable: true }, item.variables, has(item, 'variables'));
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
		return { status: 200, body: { message: 'Lead created successfully', data: presentLead(state, lead) } };
	});
}

module.exports = { register, presentLead, presentCampaign };
