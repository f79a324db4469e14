import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { numericIdLocator } from '../../descriptions';
import { readLocatorId } from '../parameters';
import { E164, checkEnum, checkLengthBetween, checkMaxLength, refuse } from '../validation';

type Ctx = Pick<IExecuteFunctions, 'getNode'>;

export const SIP_TRUNKS_PATH = '/api/user/phone-numbers/sip-trunks';

export const sipTrunkLocator = numericIdLocator(
	'SIP Trunk',
	'sipTrunkId',
	'searchSipTrunks',
	'The SIP trunk',
);

export function sipTrunkId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'sipTrunkId', 'SIP Trunk');
}

export const TRUNK_TYPES = ['extension', 'number'] as const;
export const CALLING_FORMATS = ['+e164', 'e164', 'national'] as const;
export const AUTH_TYPES = ['auth', 'ip'] as const;

const LIMITS = {
	extension: { min: 1, max: 15 },
	nickname: 50,
	username: { min: 3, max: 128 },
	password: 3,
};

/* ----------------------------------------------------------------- fields */

export const callingFormatField: INodeProperties = {
	displayName: 'Calling Format',
	name: 'sip_calling_format',
	type: 'options',
	default: '+e164',
	description: 'How phone numbers are written in the calls sent over the trunk',
	options: [
		{ name: '+E.164 (e.g. +4930123456)', value: '+e164' },
		{ name: 'E.164 Without Plus (e.g. 4930123456)', value: 'e164' },
		{ name: 'National (e.g. 030123456)', value: 'national' },
	],
};

export const authTypeField: INodeProperties = {
	displayName: 'Inbound Authorization',
	name: 'inbound_authorization_type',
	type: 'options',
	default: 'auth',
	description: 'How calls coming in from the SIP provider are recognised',
	options: [
		{
			name: 'IP Allowlist',
			value: 'ip',
			description: 'Accept calls from the listed IP addresses only',
		},
		{
			name: 'Username and Password',
			value: 'auth',
			description: 'The provider authenticates with the SIP username and password',
		},
	],
};

export const ipsField: INodeProperties = {
	displayName: 'Allowed Inbound IPs',
	name: 'allowed_inbound_ips',
	type: 'string',
	default: '',
	placeholder: 'e.g. 203.0.113.10, 2001:db8::1',
	description:
		'IP addresses (IPv4 or IPv6, no ranges) the SIP provider calls from, separated by commas; at least one. An expression may also return an array.',
};

export const nicknameField: INodeProperties = {
	displayName: 'Nickname',
	name: 'nickname',
	type: 'string',
	default: '',
	description: `Name shown for the trunk, at most ${LIMITS.nickname} characters`,
};

export const outboundProxyField: INodeProperties = {
	displayName: 'Outbound Proxy',
	name: 'outbound_proxy',
	type: 'boolean',
	default: false,
	description: 'Whether outbound calls are sent through the SIP address as an outbound proxy',
};

export const countryCodeField: INodeProperties = {
	displayName: 'Country Code',
	name: 'country_code',
	type: 'string',
	default: '',
	placeholder: 'e.g. DE',
	description: 'Country of the number as two letters (ISO 3166-1 alpha-2)',
};

export const phoneNumberField: INodeProperties = {
	displayName: 'Phone Number',
	name: 'phone_number',
	type: 'string',
	default: '',
	placeholder: 'e.g. +4930123456 or 101',
	description:
		'For a Number trunk the number in E.164 form (e.g. +4930123456); for an Extension trunk the extension, 1-15 characters',
};

export const usernameField: INodeProperties = {
	displayName: 'SIP Username',
	name: 'sip_username',
	type: 'string',
	default: '',
	description: `Username of the SIP account, ${LIMITS.username.min}-${LIMITS.username.max} characters`,
};

export const passwordField: INodeProperties = {
	displayName: 'SIP Password',
	name: 'sip_password',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description: `Password of the SIP account, at least ${LIMITS.password} characters. It is sent to the service only and never shown in the output.`,
};

export const addressField: INodeProperties = {
	displayName: 'SIP Address',
	name: 'sip_address',
	type: 'string',
	default: '',
	placeholder: 'e.g. sip.provider.example',
	description: 'Host name or IP address of the SIP server, without "sip:" and without a port',
};

/* ------------------------------------------------------------- validation */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Whether a text is one IPv4 or IPv6 address (no range, no port, no zone). */
function isIp(text: string): boolean {
	if (IPV4.test(text)) return true;
	if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return false;
	try {
		// the URL parser checks IPv6 literals, embedded IPv4 included
		return new URL(`http://[${text}]/`).hostname.length > 2;
	} catch {
		return false;
	}
}

/** The IP list of a field: a comma/space/newline separated text or an array. */
function readIps(ctx: Ctx, itemIndex: number, value: unknown): string[] {
	const parts = Array.isArray(value)
		? value.map((v) => String(v ?? ''))
		: String(value ?? '').split(/[\s,;]+/);
	const ips = parts.map((v) => v.trim()).filter((v) => v !== '');
	if (!ips.length) {
		refuse(
			ctx,
			itemIndex,
			'Allowed Inbound IPs needs at least one IP address when Inbound Authorization is IP Allowlist',
			'Enter the IPv4 or IPv6 addresses the SIP provider calls from, separated by commas.',
		);
	}
	const bad = ips.filter((ip) => !isIp(ip));
	if (bad.length) {
		refuse(
			ctx,
			itemIndex,
			`Allowed Inbound IPs must be IPv4 or IPv6 addresses (no ranges or ports), got "${bad[0]}"`,
		);
	}
	return ips;
}

/** The SIP address: a host, refused with a scheme or a port. */
function checkSipAddress(ctx: Ctx, itemIndex: number, value: string) {
	const show = `"${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^sips?:/i.test(value)) {
		refuse(
			ctx,
			itemIndex,
			`SIP Address must be a host name or IP address without a scheme such as "sip:", got ${show}`,
			'Enter only the host, e.g. sip.provider.example',
		);
	}
	if (/^[^:]+:\d*$/.test(value) || /^\[[^\]]*\](:\d*)?$/.test(value)) {
		refuse(
			ctx,
			itemIndex,
			`SIP Address must be a host name or IP address without a port, got ${show}`,
			'Enter only the host, e.g. sip.provider.example; the port is not set here.',
		);
	}
	if (/[\s/]/.test(value)) {
		refuse(ctx, itemIndex, `SIP Address must be a host name or IP address, got ${show}`);
	}
}

function checkPassword(ctx: Ctx, itemIndex: number, value: string) {
	// the value is never put into a message
	if (value.length < LIMITS.password) {
		refuse(
			ctx,
			itemIndex,
			`SIP Password is too short: at least ${LIMITS.password} characters are needed`,
		);
	}
}

/**
 * The phone number of a trunk: E.164 for a number trunk, 1-15 characters for
 * an extension; either when the type is not known (update).
 */
function checkTrunkNumber(
	ctx: Ctx,
	itemIndex: number,
	value: string,
	type: (typeof TRUNK_TYPES)[number] | undefined,
) {
	const { min, max } = LIMITS.extension;
	if (type === 'number' && !E164.test(value)) {
		refuse(
			ctx,
			itemIndex,
			`Phone Number of a Number trunk must be in E.164 form (a "+", the country code and the number, digits only, e.g. +4930123456), got "${value}"`,
		);
	}
	if (type === 'extension')
		checkLengthBetween(ctx, itemIndex, 'Phone Number (extension)', value, LIMITS.extension);
	if (type === undefined && !E164.test(value) && (value.length < min || value.length > max)) {
		refuse(
			ctx,
			itemIndex,
			`Phone Number must be an E.164 number (e.g. +4930123456) or an extension of ${min}-${max} characters, got "${value}"`,
		);
	}
}

const LABELS: Record<string, string> = {
	phone_number: 'Phone Number',
	nickname: 'Nickname',
	sip_username: 'SIP Username',
	sip_password: 'SIP Password',
	sip_address: 'SIP Address',
	sip_calling_format: 'Calling Format',
	inbound_authorization_type: 'Inbound Authorization',
	allowed_inbound_ips: 'Allowed Inbound IPs',
	country_code: 'Country Code',
	outbound_proxy: 'Outbound Proxy',
};

const text = (value: unknown) =>
	value === undefined || value === null ? '' : String(value).trim();

/**
 * The body of a create or update from the given field values (API names).
 * Fields absent from `values` are left out; every value is checked first.
 */
export function trunkBody(
	ctx: Ctx,
	itemIndex: number,
	values: IDataObject,
	type: (typeof TRUNK_TYPES)[number] | undefined,
): IDataObject {
	const body: IDataObject = {};
	const has = (key: string) => values[key] !== undefined;
	if (has('phone_number')) {
		const value = text(values.phone_number);
		checkTrunkNumber(ctx, itemIndex, value, type);
		body.phone_number = value;
	}
	if (has('nickname')) {
		const value = text(values.nickname);
		checkMaxLength(ctx, itemIndex, LABELS.nickname, value, LIMITS.nickname);
		body.nickname = value === '' ? null : value;
	}
	if (has('sip_username')) {
		const value = text(values.sip_username);
		checkLengthBetween(ctx, itemIndex, LABELS.sip_username, value, LIMITS.username);
		body.sip_username = value;
	}
	if (has('sip_password')) {
		// a password is sent as typed: spaces may belong to it
		const value = values.sip_password === null ? '' : String(values.sip_password);
		checkPassword(ctx, itemIndex, value);
		body.sip_password = value;
	}
	if (has('sip_address')) {
		const value = text(values.sip_address);
		if (value === '')
			refuse(ctx, itemIndex, 'SIP Address is required', 'Enter the host of the SIP server.');
		checkSipAddress(ctx, itemIndex, value);
		body.sip_address = value;
	}
	if (has('sip_calling_format')) {
		const value = text(values.sip_calling_format);
		checkEnum(ctx, itemIndex, LABELS.sip_calling_format, value || '(empty)', CALLING_FORMATS);
		body.sip_calling_format = value;
	}
	if (has('inbound_authorization_type')) {
		const value = text(values.inbound_authorization_type);
		checkEnum(ctx, itemIndex, LABELS.inbound_authorization_type, value || '(empty)', AUTH_TYPES);
		body.inbound_authorization_type = value;
	}
	if (has('allowed_inbound_ips')) {
		body.allowed_inbound_ips = readIps(ctx, itemIndex, values.allowed_inbound_ips);
	}
	if (has('country_code')) {
		const value = text(values.country_code).toUpperCase();
		if (!/^[A-Z]{2}$/.test(value)) {
			refuse(
				ctx,
				itemIndex,
				`Country Code must be two letters (ISO 3166-1 alpha-2, e.g. DE), got "${value}"`,
			);
		}
		body.country_code = value;
	}
	if (has('outbound_proxy')) {
		const value = values.outbound_proxy;
		body.outbound_proxy = value === true || value === 'true' || value === 1 || value === '1';
	}
	return body;
}

/** A trunk record without any password field (the service never returns it; kept out regardless). */
export function withoutSecrets(record: IDataObject): IDataObject {
	const rest: IDataObject = { ...record };
	delete rest.sip_password;
	delete rest.password;
	return rest;
}
