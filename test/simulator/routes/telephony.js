'use strict';
/**
 * SIP trunks. A SIP trunk is a phone number of type `sip` in `state.phoneNumbers` with its
 * trunk settings; its password is stored (`sip_password`) and never returned.
 *
 *   GET  /api/user/phone-numbers/sip-trunks       {data: [trunk]}
 *   POST /api/user/phone-numbers/sip-trunks       201 {message, data}; 409 {error} duplicate; 422 validation
 *   GET  /api/user/phone-numbers/sip-trunks/:id   {data}; 404 {error: 'SIP trunk not found.'}
 *   PUT  /api/user/phone-numbers/sip-trunks/:id   200 {message, data}; 404; 409; 422
 *
 * Delete is DELETE /api/user/phone-numbers/:id (routes/phoneNumbers.js): immediate for SIP
 * numbers. Credential, address or proxy changes re-provision (new trunk ids); switching to
 * `auth` clears the IP list. `state.telephonyFailures.sipProvisioning` answers the 500 of
 * provisioning (nothing is saved).
 */
const net = require('node:net');
const { Validator, INVALID, E164 } = require('../validate');
const { HttpError, created, has, iso, intId, uuid } = require('../util');
const { nextId } = require('../state');

const TRUNK_TYPES = ['extension', 'number'];
const CALLING_FORMATS = ['+e164', 'e164', 'national'];
const AUTH_TYPES = ['auth', 'ip'];
const NOT_FOUND = () => new HttpError(404, { error: 'SIP trunk not found.' });
const PROVISIONING_FAILED = () =>
	new HttpError(500, {
		error: 'Failed to provision SIP trunk. Please check the SIP settings or contact support.',
	});
const DUPLICATE = () =>
	new HttpError(409, {
		error: 'A SIP trunk with this phone number, username and address already exists.',
	});
/** A host without scheme and port: a name, an IPv4 or a bare IPv6 address. */
const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/;
/** Fields whose change re-provisions the trunk. */
const PROVISIONED = ['sip_username', 'sip_password', 'sip_address', 'outbound_proxy'];

function present(trunk, withTrunkIds) {
	const out = {
		id: trunk.id,
		phone_number: trunk.phone_number,
		nickname: trunk.nickname == null ? null : trunk.nickname,
		sip_username: trunk.sip_username,
		sip_address: trunk.sip_address,
		sip_calling_format: trunk.sip_calling_format,
		inbound_authorization_type: trunk.inbound_authorization_type,
		allowed_inbound_ips: trunk.allowed_inbound_ips == null ? null : [...trunk.allowed_inbound_ips],
		outbound_proxy: Boolean(trunk.outbound_proxy),
		country_code: trunk.country_code,
		created_at: trunk.created_at,
		updated_at: trunk.updated_at || trunk.created_at,
	};
	if (withTrunkIds) {
		out.inbound_trunk_id = trunk.inbound_trunk_id || null;
		out.outbound_trunk_id = trunk.outbound_trunk_id || null;
	}
	return out;
}

function trunkOr404(state, rawId) {
	const id = intId(rawId);
	const trunk =
		id === null ? null : state.phoneNumbers.find((p) => p.id === id && p.type === 'sip');
	if (!trunk) throw NOT_FOUND();
	return trunk;
}

function isHost(value) {
	return HOST.test(value) || net.isIP(value) !== 0;
}

/**
 * Validates the fields of a create (all required ones) or an update (each optional) and
 * returns the values given. `current` is the stored trunk on update.
 */
function validate(body, current) {
	const create = !current;
	const v = new Validator(body, INVALID);
	const out = {};
	const keep = (field, result) => {
		if (result.present && result.ok) out[field] = result.value;
		return result;
	};
	const type = create
		? v.check('sip_trunk_type', { required: true, type: 'string', in: TRUNK_TYPES })
		: { ok: true, value: current.sip_trunk_type };
	if (create) keep('sip_trunk_type', type);
	const phone = v.check('phone_number', { required: create, type: 'string' });
	if (phone.present && phone.ok && type.ok) {
		if (type.value === 'number' && !E164.test(phone.value)) {
			v.add(
				'phone_number',
				'The phone number must be a valid phone number in E.164 format (e.g. +14155552671).',
			);
		} else if (type.value !== 'number' && (phone.value.length < 1 || phone.value.length > 15)) {
			v.add('phone_number', 'The phone number must be between 1 and 15 characters.');
		} else {
			out.phone_number = phone.value;
		}
	}
	keep('nickname', v.check('nickname', { type: 'string', nullable: true, max: 50 }));
	keep(
		'sip_username',
		v.check('sip_username', { required: create, type: 'string', min: 3, max: 128 }),
	);
	keep('sip_password', v.check('sip_password', { required: create, type: 'string', min: 3 }));
	const address = v.check('sip_address', { required: create, type: 'string', max: 255 });
	if (address.present && address.ok) {
		if (!isHost(address.value))
			v.add('sip_address', 'The sip address must be a valid host without protocol or port.');
		else out.sip_address = address.value;
	}
	keep(
		'sip_calling_format',
		v.check('sip_calling_format', { required: create, type: 'string', in: CALLING_FORMATS }),
	);
	const auth = keep(
		'inbound_authorization_type',
		v.check('inbound_authorization_type', { required: create, type: 'string', in: AUTH_TYPES }),
	);
	const effectiveAuth = auth.present ? auth.value : current && current.inbound_authorization_type;
	const switchingToIp =
		auth.present && auth.value === 'ip' && (create || current.inbound_authorization_type !== 'ip');
	const ipsGiven =
		has(body, 'allowed_inbound_ips') &&
		body.allowed_inbound_ips !== null &&
		body.allowed_inbound_ips !== '';
	if (effectiveAuth === 'ip' && !ipsGiven && (create || switchingToIp)) {
		v.add(
			'allowed_inbound_ips',
			'The allowed inbound ips field is required when inbound authorization type is ip.',
		);
	} else if (ipsGiven) {
		const ips = v.check('allowed_inbound_ips', { type: 'array' });
		if (ips.ok) {
			if (ips.value.length < 1)
				v.add('allowed_inbound_ips', 'The allowed inbound ips must have at least 1 items.');
			ips.value.forEach((ip, i) => {
				if (typeof ip !== 'string' || net.isIP(ip.trim()) === 0) {
					v.add(
						`allowed_inbound_ips.${i}`,
						`The allowed_inbound_ips.${i} must be a valid IP address.`,
					);
				}
			});
			if (
				!v.hasError('allowed_inbound_ips') &&
				!Object.keys(v.errors).some((k) => k.startsWith('allowed_inbound_ips.'))
			) {
				out.allowed_inbound_ips = ips.value.map((ip) => ip.trim());
			}
		}
	}
	const country = v.check('country_code', { required: create, type: 'string' });
	if (country.present && country.ok) {
		if (!/^[A-Za-z]{2}$/.test(country.value))
			v.add('country_code', 'The country code must be 2 characters.');
		else out.country_code = country.value.toUpperCase();
	}
	keep('outbound_proxy', v.check('outbound_proxy', { type: 'boolean', nullable: true }));
	v.throwIfFailed();
	if (out.outbound_proxy === null) delete out.outbound_proxy;
	if (effectiveAuth === 'auth') out.allowed_inbound_ips = null;
	return out;
}

function isDuplicate(state, candidate, exceptId) {
	return state.phoneNumbers.some(
		(p) =>
			p.type === 'sip' &&
			p.id !== exceptId &&
			p.phone_number === candidate.phone_number &&
			p.sip_username === candidate.sip_username &&
			p.sip_address === candidate.sip_address,
	);
}

function provision(state, trunk) {
	if (state.telephonyFailures && state.telephonyFailures.sipProvisioning)
		throw PROVISIONING_FAILED();
	const tag = uuid().replace(/-/g, '').slice(0, 12);
	trunk.inbound_trunk_id = `ST_in_${tag}`;
	trunk.outbound_trunk_id = `ST_out_${tag}`;
}

function register(router) {
	router.get('/api/user/phone-numbers/sip-trunks', ({ state }) => ({
		status: 200,
		body: {
			data: state.phoneNumbers.filter((p) => p.type === 'sip').map((p) => present(p, false)),
		},
	}));

	router.post('/api/user/phone-numbers/sip-trunks', ({ state, body }) => {
		const values = validate(body, null);
		if (isDuplicate(state, values, null)) throw DUPLICATE();
		const now = iso();
		const trunk = {
			id: 0,
			phone_number: values.phone_number,
			country_code: values.country_code,
			type: 'sip',
			sms_capable: false,
			region: values.country_code,
			has_active_subscription: false,
			nickname: values.nickname == null ? null : values.nickname.trim(),
			release_scheduled: false,
			sip_trunk_type: values.sip_trunk_type,
			sip_username: values.sip_username,
			sip_password: values.sip_password,
			sip_address: values.sip_address,
			sip_calling_format: values.sip_calling_format,
			inbound_authorization_type: values.inbound_authorization_type,
			allowed_inbound_ips: values.allowed_inbound_ips,
			outbound_proxy: values.outbound_proxy === undefined ? false : values.outbound_proxy,
			created_at: now,
			updated_at: now,
		};
		provision(state, trunk);
		trunk.id = nextId(state, 'phoneNumbers');
		state.phoneNumbers.push(trunk);
		return created('SIP trunk created successfully.', present(trunk, true));
	});

	router.get('/api/user/phone-numbers/sip-trunks/:id', ({ state, params }) => ({
		status: 200,
		body: { data: present(trunkOr404(state, params.id), true) },
	}));

	router.put('/api/user/phone-numbers/sip-trunks/:id', ({ state, params, body }) => {
		const trunk = trunkOr404(state, params.id);
		const values = validate(body, trunk);
		if (typeof values.nickname === 'string') values.nickname = values.nickname.trim();
		const next = { ...trunk, ...values };
		if (isDuplicate(state, next, trunk.id)) throw DUPLICATE();
		const reprovision = PROVISIONED.some((f) => has(values, f) && values[f] !== trunk[f]);
		if (reprovision) provision(state, next);
		Object.assign(trunk, next, { updated_at: iso() });
		return {
			status: 200,
			body: { message: 'SIP trunk updated successfully.', data: present(trunk, true) },
		};
	});
}

module.exports = { register };
