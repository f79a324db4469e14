'use strict';
/**
 * State of the telephony endpoints: called by createState with the state built so far.
 * `seeded` is false for an empty simulator (no sample data).
 *
 * Phone numbers are account fixtures (present also without sample data), so their extra
 * fields are set in both cases:
 * - every number gets `nickname` (null) and `release_scheduled` (false);
 * - the SIP number (id 5) gets its trunk settings; `sip_password` is stored, never returned;
 * - `paymentMethod`: the stored card purchases are charged to (not the balance). Set it to
 *   null for 402 "No payment method found", or `declines: true` for 402 "Payment failed";
 * - `phoneSubscriptions`: one monthly subscription per bought number (seeded for the
 *   numbers with an active subscription), `phoneCharges`: what each purchase charged;
 * - `phoneNumberSearches`: the last search result per country (a purchase must be one);
 * - `telephonyFailures`: set `purchase`, `release` or `sipProvisioning` to true to get the
 *   service's 500 answer of that step.
 */
const { iso } = require('../util');

const DAY = 86400000;

function seed(state, { now }) {
	for (const number of state.phoneNumbers) {
		number.nickname = null;
		number.release_scheduled = false;
	}
	const sip = state.phoneNumbers.find((p) => p.id === 5 && p.type === 'sip');
	if (sip) {
		Object.assign(sip, {
			nickname: 'Office PBX',
			sip_trunk_type: 'number',
			sip_username: 'office-pbx',
			sip_password: 'seeded-secret',
			sip_address: 'sip.provider.example',
			sip_calling_format: '+e164',
			inbound_authorization_type: 'auth',
			allowed_inbound_ips: null,
			outbound_proxy: false,
			inbound_trunk_id: 'ST_in_seed5',
			outbound_trunk_id: 'ST_out_seed5',
			updated_at: sip.created_at,
		});
	}
	state.paymentMethod = { brand: 'visa', last4: '4242', declines: false };
	state.phoneSubscriptions = state.phoneNumbers
		.filter((p) => p.type === 'normal' && p.has_active_subscription)
		.map((p, i) => ({
			id: i + 1,
			phone_number_id: p.id,
			phone_number: p.phone_number,
			price: 1.15,
			currency: 'USD',
			interval: 'month',
			status: 'active',
			cancel_at_period_end: false,
			started_at: p.created_at,
			current_period_end: iso(now + (10 + i) * DAY),
		}));
	state.phoneCharges = [];
	state.phoneNumberSearches = {};
	state.telephonyFailures = { purchase: false, release: false, sipProvisioning: false };
}

module.exports = { seed };
