'use strict';
/**
 * Phone numbers.
 *
 *   GET /api/user/phone-numbers/all        {data: [owned number]}
 *   GET /api/user/phone-numbers/search     {data: [available number]}; query country_code (alias country), contains
 *   GET /api/user/phone-numbers            legacy: {data: [owned number]} of SMS-capable numbers with an active subscription
 *   GET /api/user/assistants/phone-numbers bare array {id, phone_number, country_code, type_label, is_available}; query type
 */
const { Validator, INVALID } = require('../validate');
const { has } = require('../util');
const { SEARCH_COUNTRIES, PHONE_TYPE_LABELS } = require('../domain');

const COUNTRY_PLANS = {
	US: { cc: '1', areas: ['415', '212', '312', '202'], local: 7, price: 1.15, address: 'none', sms: true },
	CA: { cc: '1', areas: ['416', '604', '514'], local: 7, price: 1.15, address: 'none', sms: true },
	GB: { cc: '44', areas: ['20', '161', '7700'], local: 6, price: 1.5, address: 'local', sms: false },
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
		created_at: p.created_at,
	};
}

function register(router) {
	router.get('/api/user/phone-numbers/all', ({ state }) => ({ status: 200, body: { data: state.phoneNumbers.map(presentOwned) } }));

	router.get('/api/user/phone-numbers', ({ state }) => ({
		status: 200,
		body: { data: state.phoneNumbers.filter((p) => p.sms_capable && p.has_active_subscription).map(presentOwned) },
	}));

	router.get('/api/user/phone-numbers/search', ({ query }) => {
		const v = new Validator(query, INVALID);
		const field = has(query, 'country_code') || !has(query, 'country') ? 'country_code' : 'country';
		const raw = query[field];
		const country = v.check(field, { type: 'string', nullable: true, in: SEARCH_COUNTRIES }, typeof raw === 'string' ? raw.toUpperCase() : raw, has(query, field));
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
		const data = inventory(code).filter((n) => n.phone_number.slice(1).includes(digits));
		return { status: 200, body: { data } };
	});

	router.get('/api/user/assistants/phone-numbers', ({ state, query }) => {
		const v = new Validator(query, INVALID);
		const type = v.check('type', { type: 'string', nullable: true, in: ['inbound', 'outbound'] });
		v.throwIfFailed();
		const assignedInbound = new Set(
			state.assistants.filter((a) => a.type === 'inbound' && a.phone_number_id != null).map((a) => a.phone_number_id),
		);
		let numbers = state.phoneNumbers;
		if (type.value === 'inbound') numbers = numbers.filter((p) => p.type !== 'caller_id' && !assignedInbound.has(p.id));
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
