'use strict';
/**
 * Reading and decoding request bodies: JSON, multipart/form-data and
 * application/x-www-form-urlencoded. Also builds the summary the request log keeps.
 */
const { HttpError, sha256 } = require('./util');
const { parseMultipart, MultipartError } = require('./multipart');

const LOG_TEXT_LIMIT = 10000;

function readBody(req, maxBytes) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size > maxBytes) {
				tooLarge = true;
				chunks.length = 0;
			}
			if (!tooLarge) chunks.push(chunk);
		});
		req.on('end', () => resolve({ buffer: Buffer.concat(chunks), size, tooLarge }));
		req.on('error', reject);
	});
}

/** Query parameters as an object; `a[]=1&a[]=2` gives an array, otherwise the last value wins. */
function parseQuery(searchParams) {
	const out = {};
	for (const [key, value] of searchParams) {
		if (key.endsWith('[]')) {
			const k = key.slice(0, -2);
			(out[k] = Array.isArray(out[k]) ? out[k] : []).push(value);
		} else {
			out[key] = value;
		}
	}
	return out;
}

/**
 * Decodes a body by Content-Type.
 * A body without a JSON Content-Type is read as JSON only when it has no Content-Type at all,
 * or with `lenientJson` (the control API) when it looks like JSON.
 * @returns {{body: object, files: object, multipart: Array|null, logBody: any}}
 */
function decodeBody(buffer, contentType = '', { lenientJson = false } = {}) {
	const type = contentType.split(';')[0].trim().toLowerCase();
	if (type === 'multipart/form-data') {
		let parts;
		try {
			parts = parseMultipart(buffer, contentType);
		} catch (err) {
			if (err instanceof MultipartError)
				throw new HttpError(400, { message: 'Malformed multipart body' });
			throw err;
		}
		const body = {};
		const files = {};
		const summary = { multipart: true, parts: [], fields: {}, files: [] };
		for (const part of parts) {
			summary.parts.push(part.name);
			if (part.filename !== null) {
				const info = {
					field: part.name,
					filename: part.filename,
					contentType: part.contentType,
					size: part.data.length,
					sha256: sha256(part.data),
				};
				summary.files.push(info);
				files[part.name] = { ...info, data: part.data };
			} else {
				const value = part.data.toString('utf8');
				const m = /^(.*)\[\]$/.exec(part.name || '');
				if (m) {
					(body[m[1]] = Array.isArray(body[m[1]]) ? body[m[1]] : []).push(value);
				} else if (part.name !== null) {
					body[part.name] = value;
				}
				summary.fields[part.name] =
					value.length > LOG_TEXT_LIMIT ? `${value.slice(0, LOG_TEXT_LIMIT)}…` : value;
			}
		}
		expandBrackets(body);
		return { body, files, multipart: parts, logBody: summary };
	}
	if (buffer.length === 0) return { body: {}, files: {}, multipart: null, logBody: null };
	const text = buffer.toString('utf8');
	if (type === 'application/x-www-form-urlencoded') {
		const body = parseQuery(new URLSearchParams(text));
		expandBrackets(body);
		return { body, files: {}, multipart: null, logBody: body };
	}
	const looksJson =
		type === 'application/json' ||
		type.endsWith('+json') ||
		((type === '' || lenientJson) && /^\s*[[{]/.test(text));
	if (looksJson) {
		if (text.trim() === '') return { body: {}, files: {}, multipart: null, logBody: null };
		try {
			const body = JSON.parse(text);
			return { body, files: {}, multipart: null, logBody: body };
		} catch {
			const err = new HttpError(400, { message: 'Malformed JSON' });
			err.logBody = text.length > LOG_TEXT_LIMIT ? `${text.slice(0, LOG_TEXT_LIMIT)}…` : text;
			throw err;
		}
	}
	return {
		body: {},
		files: {},
		multipart: null,
		logBody: text.length > LOG_TEXT_LIMIT ? `${text.slice(0, LOG_TEXT_LIMIT)}…` : text,
	};
}

/** Turns form keys like `links[0][link]` into nested values (PHP's form decoding). */
function expandBrackets(body) {
	for (const key of Object.keys(body)) {
		const m = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
		if (!m) continue;
		const path = [m[1], ...m[2].slice(1, -1).split('][')];
		let node = body;
		for (let i = 0; i < path.length - 1; i++) {
			const k = path[i];
			const nextIsIndex = /^\d+$/.test(path[i + 1]);
			if (node[k] === undefined || typeof node[k] !== 'object') node[k] = nextIsIndex ? [] : {};
			node = node[k];
		}
		node[path[path.length - 1]] = body[key];
		delete body[key];
	}
}

module.exports = { readBody, decodeBody, parseQuery };
