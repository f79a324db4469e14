'use strict';
/**
 * A small Laravel-like validator. It collects messages per field in the shape the
 * service answers with (`errors: {field: [message]}`) and normalises values the way
 * Laravel accepts them (numeric strings for integers and numbers, 0/1 for booleans,
 * empty strings treated as null).
 */
const { HttpError, isPlainObject, has } = require('./util');

const INVALID = 'The given data was invalid.';
const E164 = /^\+[1-9]\d{6,14}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function attr(field) {
	return field.replace(/_/g, ' ');
}

function isValidDate(text) {
	const m = DATE.exec(text);
	if (!m) return false;
	const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
	return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

function isValidUrl(text) {
	if (typeof text !== 'string' || /\s/.test(text)) return false;
	try {
		const u = new URL(text);
		return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
	} catch {
		return false;
	}
}

/**
 * Zones the service's tz database has that an older ICU may lack (renamed or
 * created since 2022): the simulator must not refuse them on any Node line.
 */
const RECENT_TIMEZONES = ['America/Ciudad_Juarez', 'America/Nuuk', 'Europe/Kyiv', 'Pacific/Kanton'];

let timezones = null;
function isValidTimezone(name) {
	if (typeof name !== 'string') return false;
	if (name === 'UTC') return true;
	if (!timezones) {
		timezones = new Set(
			typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [],
		);
		for (const zone of RECENT_TIMEZONES) timezones.add(zone);
	}
	if (timezones.has(name)) return true;
	// Region/City names that ICU knows under another canonical name (Europe/Kiev, Asia/Calcutta, ...)
	if (!/^[A-Za-z]+\/[A-Za-z0-9_+\-/]+$/.test(name)) return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name });
		return true;
	} catch {
		return false;
	}
}

const TYPE_MESSAGES = {
	string: (f) => `The ${attr(f)} must be a string.`,
	integer: (f) => `The ${attr(f)} must be an integer.`,
	number: (f) => `The ${attr(f)} must be a number.`,
	boolean: (f) => `The ${attr(f)} field must be true or false.`,
	array: (f) => `The ${attr(f)} must be an array.`,
	object: (f) => `The ${attr(f)} must be an object.`,
	url: (f) => `The ${attr(f)} must be a valid URL.`,
	date: (f) => `The ${attr(f)} does not match the format Y-m-d.`,
};

/** Converts a value to the rule's type; returns {ok, value}. */
function coerce(type, value) {
	switch (type) {
		case undefined:
			return { ok: true, value };
		case 'string':
			return { ok: typeof value === 'string', value };
		case 'url':
			return { ok: isValidUrl(value), value };
		case 'date':
			return { ok: typeof value === 'string' && isValidDate(value), value };
		case 'integer':
			if (typeof value === 'number' && Number.isInteger(value)) return { ok: true, value };
			if (typeof value === 'string' && /^[+-]?\d{1,15}$/.test(value.trim()))
				return { ok: true, value: Number(value) };
			return { ok: false };
		case 'number':
			if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
			if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
				return { ok: true, value: Number(value) };
			}
			return { ok: false };
		case 'boolean':
			if (value === true || value === false) return { ok: true, value };
			if (value === 1 || value === '1') return { ok: true, value: true };
			if (value === 0 || value === '0') return { ok: true, value: false };
			return { ok: false };
		case 'array':
			return { ok: Array.isArray(value), value };
		case 'object':
			// PHP has no distinction between [] and {}: an empty list is an empty object.
			if (Array.isArray(value) && value.length === 0) return { ok: true, value: {} };
			return { ok: isPlainObject(value), value };
		default:
			throw new Error(`unknown rule type ${type}`);
	}
}

class Validator {
	/**
	 * @param {object} data the request input
	 * @param {string} [message] the top-level message of the 422 answer
	 */
	constructor(data, message = INVALID) {
		this.data = isPlainObject(data) ? data : {};
		this.errors = {};
		this.message = message;
	}

	present(field) {
		return has(this.data, field) && this.data[field] !== undefined;
	}

	add(field, message) {
		(this.errors[field] = this.errors[field] || []).push(message);
	}

	hasError(field) {
		return Boolean(this.errors[field]);
	}

	get failed() {
		return Object.keys(this.errors).length > 0;
	}

	/**
	 * Checks one value. Rules: required, nullable, type, min, max, in, regex, timezone,
	 * e164, messages: {required, regex, in}.
	 * @returns {{present: boolean, ok: boolean, value: any}}
	 */
	check(field, rules = {}, value = this.data[field], present = has(this.data, field)) {
		const msg = rules.messages || {};
		// Laravel's TrimStrings + ConvertEmptyStringsToNull: a blank string counts as null.
		if (typeof value === 'string' && value.trim() === '') value = null;
		if (!present || value === undefined) {
			if (rules.required) this.add(field, msg.required || `The ${attr(field)} field is required.`);
			return { present: false, ok: !rules.required, value: undefined };
		}
		if (value === null) {
			if (rules.nullable && !rules.required) return { present: true, ok: true, value: null };
			if (rules.required) {
				this.add(field, msg.required || `The ${attr(field)} field is required.`);
			} else {
				this.add(field, (TYPE_MESSAGES[rules.type] || TYPE_MESSAGES.string)(field));
			}
			return { present: true, ok: false, value: null };
		}
		const converted = coerce(rules.type, value);
		if (!converted.ok) {
			this.add(field, msg.type || (TYPE_MESSAGES[rules.type] || TYPE_MESSAGES.string)(field));
			return { present: true, ok: false, value };
		}
		value = converted.value;
		const fail = (text) => {
			this.add(field, text);
			return { present: true, ok: false, value };
		};
		const isText = rules.type === 'string' || rules.type === 'url' || rules.type === undefined;
		if (isText && typeof value === 'string') {
			if (
				rules.min !== undefined &&
				rules.max !== undefined &&
				(value.length < rules.min || value.length > rules.max)
			) {
				return fail(`The ${attr(field)} must be between ${rules.min} and ${rules.max} characters.`);
			}
			if (rules.max !== undefined && value.length > rules.max) {
				return fail(`The ${attr(field)} must not be greater than ${rules.max} characters.`);
			}
			if (rules.min !== undefined && value.length < rules.min) {
				return fail(`The ${attr(field)} must be at least ${rules.min} characters.`);
			}
		}
		if (
			(rules.type === 'integer' || rules.type === 'number') &&
			(rules.min !== undefined || rules.max !== undefined)
		) {
			if (rules.min !== undefined && rules.max !== undefined) {
				if (value < rules.min || value > rules.max) {
					return fail(`The ${attr(field)} must be between ${rules.min} and ${rules.max}.`);
				}
			} else if (rules.min !== undefined && value < rules.min) {
				return fail(`The ${attr(field)} must be at least ${rules.min}.`);
			} else if (rules.max !== undefined && value > rules.max) {
				return fail(`The ${attr(field)} must not be greater than ${rules.max}.`);
			}
		}
		if (rules.type === 'array' && rules.max !== undefined && value.length > rules.max) {
			return fail(`The ${attr(field)} must not have more than ${rules.max} items.`);
		}
		if (rules.in && !rules.in.includes(value)) {
			return fail(msg.in || `The selected ${attr(field)} is invalid.`);
		}
		if (rules.regex && !rules.regex.test(String(value))) {
			return fail(msg.regex || `The ${attr(field)} format is invalid.`);
		}
		if (rules.e164 && !E164.test(String(value))) {
			return fail(
				msg.e164 ||
					`The ${attr(field)} must be a valid phone number in E.164 format (e.g. +14155552671).`,
			);
		}
		if (rules.timezone && !isValidTimezone(value)) {
			return fail(`The ${attr(field)} must be a valid timezone.`);
		}
		return { present: true, ok: true, value };
	}

	/** Throws the 422 answer when any check failed. */
	throwIfFailed(extra) {
		if (this.failed) {
			throw new HttpError(422, { message: this.message, errors: this.errors, ...(extra || {}) });
		}
	}
}

module.exports = { Validator, INVALID, E164, isValidDate, isValidUrl, isValidTimezone, attr };
