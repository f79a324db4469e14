'use strict';
/**
 * Small helpers shared by the simulator modules: timestamps in the two forms the
 * API uses, UUIDs, an HTTP error type and a few object helpers.
 */
const crypto = require('node:crypto');

/** ISO 8601 in the form Laravel serialises dates: 2025-01-08T10:30:00.000000Z */
function iso(ms = Date.now()) {
	return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * Minutes the service's zone-less times are ahead of UTC (config `serviceZoneMinutes`; SPEC shows
 * those times without a zone, so the simulator can write them in any zone; 0: UTC).
 */
let serviceZoneMinutes = 0;
function setServiceZone(minutes) {
	serviceZoneMinutes = minutes;
}

/** The `YYYY-MM-DD HH:MM:SS` form (the service's zone) used by leads, calls and conversations. */
function sqlTime(ms = Date.now()) {
	return new Date(ms + serviceZoneMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 without fractions (webhook payloads: created_at, finished_at). */
function isoSeconds(ms = Date.now()) {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function uuid() {
	return crypto.randomUUID();
}

function sha256(buffer) {
	return crypto.createHash('sha256').update(buffer).digest('hex');
}

/** An error a handler throws to answer with a given status and JSON body. */
class HttpError extends Error {
	constructor(status, body, headers) {
		super(
			typeof body === 'object' && body
				? body.message || body.error || `HTTP ${status}`
				: String(body),
		);
		this.status = status;
		this.body = body;
		this.headers = headers || {};
	}
}

/** The answer to a create: 201 `{message, data}`. */
function created(message, data) {
	return { status: 201, body: { message, data } };
}

function isPlainObject(value) {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function has(obj, key) {
	return isPlainObject(obj) && Object.prototype.hasOwnProperty.call(obj, key);
}

function pick(obj, keys) {
	const out = {};
	for (const k of keys) out[k] = obj[k] === undefined ? null : obj[k];
	return out;
}

function clone(value) {
	return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Parses a path segment as a positive integer id; returns null when it is not one. */
function intId(segment) {
	return /^\d{1,15}$/.test(String(segment)) ? Number(segment) : null;
}

/** Money rounding to 4 decimals so repeated 0.01 charges stay exact. */
function money(value) {
	return Math.round(value * 10000) / 10000;
}

/** Replaces {{ name }} placeholders with values from `vars`; unknown names stay as they are. */
function substitute(text, vars) {
	if (typeof text !== 'string') return text;
	return text.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (whole, name) =>
		vars && vars[name] !== undefined && vars[name] !== null ? String(vars[name]) : whole,
	);
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

module.exports = {
	iso,
	sqlTime,
	setServiceZone,
	isoSeconds,
	uuid,
	sha256,
	HttpError,
	created,
	isPlainObject,
	has,
	pick,
	clone,
	intId,
	money,
	substitute,
	sleep,
};
