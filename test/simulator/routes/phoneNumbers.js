'use strict';
/**
 * Phone numbers.
 *
 *   GET /api/user/phone-numbers/all        {data: [owned number]}
 *   GET /api/user/phone-numbers/search     {data: [available number]}; query country_code (alias country), contains
 *   GET /api/user/phone-numbers            legacy: {data: [owned number]} of SMS-capable numbers with an active subscription
 *   GET /api/user/assistants/phone-numbers bare array {id, phone_number, country_code, type_label, is_available}; query type
 *   POST /api/user/phone-numbers/purchase  {phone_number}: buys a number of the last search of its country
 *   PUT /api/user/phone-numbers/:id        {nickname}: max 50, null or "" clears
 *   DELETE /api/user/phone-numbers/:id     normal: scheduled for release at the end of the billing period;
 *                                          sip and caller_id (SIP trunks too): removed at once
 *
 * Search leaves out numbers the account owns and remembers its result per country; a purchase
 * must be one of those numbers. A purchase is charged to `state.paymentMethod` (a subscription
 * in `state.phoneSubscriptions`, a charge in `state.phoneCharges`), never to the balance.
 * Released numbers are taken from their assistants at once (`phone_number_id` null).
 * Errors use `{error}` with the statuses of the docs; a nickname over 50 characters the
 * validation shape.
 */
const { Validator, INVALID, E164 } = require('../validate');
const { HttpError, created, has, iso, intId, money } = require('../util');
const { nextId } = require('../state');
const { SEARCH_COUNTRIES, PHONE_TYPE_LABELS } = require('../domain');

const COUNTRY_PLANS = {
	US: {
		cc: '1',
		areas: ['415', '212', '312', '202'],
		local: 7,
		price: 1.15,
		address: 'none',
		sms: true,
	},
	CA: { cc: '1', areas: ['416', '604', '514'], local: 7, price: 1.15, address: 'none', sms: true },
	GB: {
		cc: '44',
		areas: ['20', '161', '7700'],
		local: 6,
		price: 1.5,
		address: 'local',
		sms: false,
	},
	AU: { cc: '61', areas: ['2', '3', '7'], local: 8, price: 6.0, address: 'local', sms: false },
	IL: { cc: '972', areas: ['3', '2'], local: 7, price: 8.0, address: 'foreign', sms: false },
	PL: { cc: '48', areas: ['22', '12'], local: 7, price: 5.0, address: 'local', sms: false },
	FI: { cc: '358', areas: ['9', '2'], local: 7, price: 6.5, address: 'none', sms: false },
	NL: { cc: '31', areas: ['20', '10'], local: 7, price: 5.5, address: 'local', sms: false },
	DK: { cc: '45', areas: ['32', '70'], local: 6, price: 6.0, address: 'none', sms: false },
	IT: { cc: '39', areas: ['02', '06'], local: 7, price: 7.0, address: 'inventory', sms: false },
};

/** A deterministic inventory of 20 numbers per country; a few carry "1234" and "555". */
function inventory(country) {
	const plan = COUNTRY_PLANS[country];
	let seed = [...country].reduce((s, ch) => s * 31 + ch.charCodeAt(0), 7);
	const rand = () => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return seed;
	};
	const out = [];
	for (let i = 0; i < 20; i++) {
		const area = plan.areas[i % plan.areas.length];
		let local = String(rand()).padStart(plan.local, '0').slice(-plan.local);
		if (i % 5 === 1) local = `${local.slice(0, plan.local - 4)}1234`;
		if (i % 7 === 3) local = `555${local.slice(3)}`;
		const national = `${area}${local}`;
		out.push({
			phone_number: `+${plan.cc}${national}`,
			phone_number_formatted: `+${plan.cc} ${area} ${local.slice(0, 3)} ${local.slice(3)}`,
			country_code: country,
			price: plan.price,
			billing_price_id: `price_sim_${country.toLowerCase()}_local`,
			address_requirements: plan.address,
			sms_capable: plan.sms && i % 3 !== 2,
		});
	}
	return out;
}

function presentOwned(p) {
	return {
		id: p.id,
		phone_number: p.phone_number,
		country_code: p.country_code,
		type: p.type,
		type_label: PHONE_TYPE_LABELS[p.type],
		sms_capable: p.sms_capable,
		region: p.region,
		has_active_subscription: p.has_active_subscription,
		nickname: p.nickname === undefined ? null : p.nickname,
		created_at: p.created_at,
	};
}

const NOT_FOUND = () => new HttpError(404, { error: 'Phone number not found.' });
const REGIONS = {
	US: 'United States',
	CA: 'Canada',
	GB: 'United Kingdom',
	AU: 'Australia',
	IL: 'Israel',
	PL: 'Poland',
	FI: 'Finland',
	NL: 'Netherlands',
	DK: 'Denmark',
	IT: 'Italy',
};
const DAY = 86400000;

function ownedOr404(state, rawId) {
	const id = intId(rawId);
	const number = id === null ? null : state.phoneNumbers.find((p) => p.id === id);
	if (!number || number.granted) throw NOT_FOUND();
	return number;
}

/** The numbers of the last search of every country, by phone number. */
function searchedNumber(state, phoneNumber) {
	for (const list of Object.values(state.phoneNumberSearches || {})) {
		const found = list.find((n) => n.phone_number === phoneNumber);
		if (found) return found;
	}
	return null;
}

function purchase(state, body) {
	const v = new Validator(body, INVALID);
	const field = v.check('phone_number', { required: true, type: 'string' });
	v.throwIfFailed();
	const phoneNumber = field.value.trim();
	if (!E164.test(phoneNumber)) {
		throw new HttpError(422, {
			error: 'Unable to parse phone number. Please provide a valid E.164 format number.',
		});
	}
	if (state.phoneNumbers.some((p) => p.phone_number === phoneNumber)) {
		throw new HttpError(400, { error: 'This phone number is already in use.' });
	}
	const offer = searchedNumber(state, phoneNumber);
	if (!offer) {
		throw new HttpError(400, {
			error:
				'This phone number is not available for purchase. Please search for available numbers first.',
		});
	}
	if (!state.paymentMethod) {
		throw new HttpError(402, {
			error: 'No payment method found. Please add a payment method to your account.',
		});
	}
	if (state.paymentMethod.declines) {
		throw new HttpError(402, { error: 'Payment failed. Please update your payment method.' });
	}
	if (state.telephonyFailures && state.telephonyFailures.purchase) {
		throw new HttpError(500, {
			error: 'Failed to purchase phone number from provider. Please contact support.',
		});
	}
	const now = Date.now();
	const record = {
		id: nextId(state, 'phoneNumbers'),
		phone_number: phoneNumber,
		country_code: offer.country_code,
		type: 'normal',
		sms_capable: offer.sms_capable,
		region: REGIONS[offer.country_code] || offer.country_code,
		has_active_subscription: true,
		nickname: null,
		release_scheduled: false,
		created_at: iso(now),
	};
	state.phoneNumbers.push(record);
	const subscription = {
		id: nextId(state, 'phoneSubscriptions'),
		phone_number_id: record.id,
		phone_number: phoneNumber,
		price: offer.price,
		billing_price_id: offer.billing_price_id,
		currency: 'USD',
		interval: 'month',
		status: 'active',
		cancel_at_period_end: false,
		payment_method_last4: state.paymentMethod.last4 || null,
		started_at: iso(now),
		current_period_end: iso(now + 30 * DAY),
	};
	state.phoneSubscriptions.push(subscription);
	state.phoneCharges.push({
		id: nextId(state, 'phoneCharges'),
		subscription_id: subscription.id,
		phone_number: phoneNumber,
		amount: money(offer.price),
		currency: 'USD',
		created_at: iso(now),
	});
	// the number leaves the search pool (search leaves out owned numbers)
	for (const list of Object.values(state.phoneNumberSearches)) {
		const i = list.findIndex((n) => n.phone_number === phoneNumber);
		if (i >= 0) list.splice(i, 1);
	}
	return created('Phone number purchased successfully.', {
		id: record.id,
		phone_number: record.phone_number,
		country_code: record.country_code,
		type: 'normal',
		sms_capable: record.sms_capable,
	});
}

function updateNickname(state, params, body) {
	const number = ownedOr404(state, params.id);
	const v = new Validator(body, INVALID);
	const nickname = v.check('nickname', { type: 'string', nullable: true, max: 50 });
	v.throwIfFailed();
	// the service's client always sends the field; an absent one counts as null like there
	number.nickname = nickname.value == null ? null : nickname.value.trim();
	return {
		status: 200,
		body: {
			message: 'Phone number updated successfully.',
			data: {
				id: number.id,
				phone_number: number.phone_number,
				nickname: number.nickname,
				country_code: number.country_code,
				type: number.type,
			},
		},
	};
}

function release(state, params) {
	const number = ownedOr404(state, params.id);
	if (number.release_scheduled) {
		throw new HttpError(400, { error: 'Phone number is already scheduled for release.' });
	}
	if (state.telephonyFailures && state.telephonyFailures.release) {
		throw new HttpError(500, {
			error: 'Failed to release phone number. Please try again or contact support.',
		});
	}
	// assistants lose the number at once (the docs leave open whether at once or at period end)
	for (const assistant of state.assistants) {
		if (assistant.phone_number_id === number.id) assistant.phone_number_id = null;
	}
	if (number.type === 'normal') {
		const now = Date.now();
		const subscription = state.phoneSubscriptions.find(
			(s) => s.phone_number_id === number.id && s.status === 'active',
		);
		if (subscription) {
			subscription.cancel_at_period_end = true;
			subscription.cancelled_at = iso(now);
		}
		number.release_scheduled = true;
		number.release_at = subscription ? subscription.current_period_end : iso(now);
		return {
			status: 200,
			body: {
				message:
					'Phone number released successfully. It will be removed at the end of the billing period.',
			},
		};
	}
	state.phoneNumbers.splice(state.phoneNumbers.indexOf(number), 1);
	return { status: 200, body: { message: 'Phone number deleted successfully.' } };
}

function register(router) {
	router.get('/api/user/phone-numbers/all', ({ state }) => ({
		status: 200,
		body: { data: state.phoneNumbers.map(presentOwned) },
	}));

	router.get('/api/user/phone-numbers', ({ state }) => ({
		status: 200,
		body: {
			data: state.phoneNumbers
				.filter((p) => p.sms_capable && p.has_active_subscription)
				.map(presentOwned),
		},
	}));

	router.get('/api/user/phone-numbers/search', ({ state, query }) => {
		const v = new Validator(query, INVALID);
		const field = has(query, 'country_code') || !has(query, 'country') ? 'country_code' : 'country';
		const raw = query[field];
		const country = v.check(
			field,
			{ type: 'string', nullable: true, in: SEARCH_COUNTRIES },
			typeof raw === 'string' ? raw.toUpperCase() : raw,
			has(query, field),
		);
		const contains = v.check('contains', {
			type: 'string',
			nullable: true,
			max: 10,
			regex: /^\d+$/,
			messages: { regex: 'The contains must only contain digits.' },
		});
		v.throwIfFailed();
		const code = country.value || 'US';
		const digits = contains.value || '';
		const owned = new Set(state.phoneNumbers.map((p) => p.phone_number));
		const data = inventory(code).filter(
			(n) => n.phone_number.slice(1).includes(digits) && !owned.has(n.phone_number),
		);
		// "a current search result": the last search of the country is what can be bought
		if (state.phoneNumberSearches) state.phoneNumberSearches[code] = data.map((n) => ({ ...n }));
		return { status: 200, body: { data } };
	});

	router.post('/api/user/phone-numbers/purchase', ({ state, body }) => purchase(state, body));
	// `:id` patterns: the SIP trunk routes (routes/telephony.js) have other methods or two segments
	router.put('/api/user/phone-numbers/:id', ({ state, params, body }) =>
		updateNickname(state, params, body),
	);
	// also deletes SIP trunks (a SIP trunk is a number of type `sip`)
	router.delete('/api/user/phone-numbers/:id', ({ state, params }) => release(state, params));

	router.get('/api/user/assistants/phone-numbers', ({ state, query }) => {
		const v = new Validator(query, INVALID);
		const type = v.check('type', { type: 'string', nullable: true, in: ['inbound', 'outbound'] });
		v.throwIfFailed();
		const assignedInbound = new Set(
			state.assistants
				.filter((a) => a.type === 'inbound' && a.phone_number_id != null)
				.map((a) => a.phone_number_id),
		);
		let numbers = state.phoneNumbers;
		if (type.value === 'inbound')
			numbers = numbers.filter((p) => p.type !== 'caller_id' && !assignedInbound.has(p.id));
		return {
			status: 200,
			body: numbers.map((p) => ({
				id: p.id,
				phone_number: p.phone_number,
				country_code: p.country_code,
				type_label: PHONE_TYPE_LABELS[p.type],
				is_available: !assignedInbound.has(p.id),
			})),
		};
	});
}

module.exports = { register, inventory };
