/**
 * What the Lead → Create test files share: the campaign picked, the parameters, a stored lead,
 * the service's duplicate answers and the read-back by phone and campaign that On Duplicate sends
 * (and the tests of a create whose answer is lost: test/unit/behaviours/createOnce/lead.test.ts).
 * (Every unit test file's setup, test/helpers/nockSetup.ts, forgets the rate limiters before each
 * test and removes nock's interceptors after it.)
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { rl } from '../helpers';

export const PHONE = '+4915112345678';
export const campaign = { __rl: true, mode: 'list', value: '7' };
/** Lead → Create in campaign 7 for PHONE, the variables from the fields below. */
export const base = {
	resource: 'lead',
	operation: 'create',
	campaignId: campaign,
	phoneNumber: PHONE,
};
export const lead = (id: number, phone: string) => ({
	id,
	campaign_id: 7,
	phone_number: phone,
	variables: {},
	status: 'created',
	created_at: '2026-11-22 10:00:00',
	updated_at: '2026-11-22 10:00:00',
	campaign: { id: 7, name: 'Spring' },
	secondary_contacts: [],
});
/** A lead as the service stores it without variables (the list and the create answer). */
export const storedLead = {
	id: 11,
	campaign_id: 7,
	phone_number: PHONE,
	status: 'created',
	secondary_contacts: [],
};
export const duplicate = {
	message: 'The given data was invalid.',
	errors: { phone_number: ['A lead with this phone number already exists in this campaign.'] },
};
/** The service's duplicate answer in its other wording. */
export const taken = {
	message: 'The given data was invalid.',
	errors: { phone_number: ['The phone number has already been taken in this campaign.'] },
};
/** A refusal that is no duplicate. */
export const invalidCampaign = {
	message: 'The given data was invalid.',
	errors: { campaign_id: ['The selected campaign id is invalid.'] },
};

/** The one page of the lead list that holds `data`. */
export const onePage = (data: object[]) => ({
	data,
	current_page: 1,
	last_page: 1,
	next_page_url: null,
});

/**
 * The create of `body` (any body when undefined) answered with `answer` (a duplicate), then the
 * read-back of the leads with `phone` in campaign 7, on `scope`: the read-back's interceptor,
 * to be replied to.
 */
export function duplicateThenReadBack(
	body?: nock.RequestBodyMatcher,
	{ answer = taken as object, phone = PHONE, scope = nock(TEST_BASE_URL) } = {},
) {
	return scope
		.post('/api/user/lead', body)
		.reply(422, answer)
		.get('/api/user/leads')
		.query({ phone_number: phone, campaign_id: 7, per_page: 10, page: 1 });
}

/** Lead → Create in campaign `campaign` (picked from the list) for `phone`, with these fields besides. */
export const createIn = (campaign: string, phone: string, fields: object = {}) => ({
	resource: 'lead',
	operation: 'create',
	campaignId: rl(campaign),
	phoneNumber: phone,
	...fields,
});

/** The read-back of the leads with `phone` in campaign `campaign`, answered with one page of `leads`. */
export const readBack = (leads: object[], phone: string, campaign: number) =>
	nock(TEST_BASE_URL)
		.get('/api/user/leads')
		.query({ phone_number: phone, campaign_id: campaign, per_page: 10, page: 1 })
		.reply(200, onePage(leads));

/**
 * Runs Lead → Create with `parameters` as the second of two items, one request in flight: the first
 * item, the same for `first.phone`, sends `first.body` (with that phone number) and is answered
 * with `first.answer()`. The node's output.
 */
export async function runAsSecond(
	parameters: IDataObject,
	first: { phone: string; body: object; answer: () => nock.Body },
) {
	nock(TEST_BASE_URL)
		.post('/api/user/lead', { ...first.body, phone_number: first.phone })
		.reply(200, first.answer);
	const { context } = createContext({
		parameters: [
			{ ...parameters, phoneNumber: first.phone, requestsInFlight: 1 },
			{ ...parameters, requestsInFlight: 1 },
		],
		items: [{ json: {} }, { json: {} }],
	});
	return await router.call(context);
}
