'use strict';
/**
 * Outgoing webhook delivery: a JSON POST with Node's http/https client (deliver), or the exact
 * bytes of a signed body (postBytes). The answer of the receiver is returned parsed as JSON when
 * it is JSON, else as text.
 */
const http = require('node:http');
const https = require('node:https');

/**
 * One request to `url` with the bytes `encode(target)` returns (it may set the query of the
 * parsed URL); resolves with the receiver's status and answer, or the network error. `json`: the
 * body is JSON (its Content-Type is sent).
 */
function send(url, encode, { method, json, headers, timeoutMs }) {
	return new Promise((resolve) => {
		let target;
		try {
			target = new URL(url);
		} catch {
			resolve({ status: null, response: null, error: `invalid URL: ${url}` });
			return;
		}
		const body = encode(target);
		const client = target.protocol === 'https:' ? https : http;
		const req = client.request(
			target,
			{
				method,
				headers: {
					...(json ? { 'Content-Type': 'application/json' } : {}),
					Accept: 'application/json',
					'User-Agent': 'VoiceChatAssistantSimulator-Webhook/1.0',
					'Content-Length': body.length,
					...headers,
				},
				timeout: timeoutMs,
				agent: false, // one connection per delivery: no keep-alive sockets left open at the receiver
			},
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let response = text;
					try {
						response = text.length ? JSON.parse(text) : null;
					} catch {
						/* plain text answer */
					}
					resolve({ status: res.statusCode, response });
				});
				res.on('error', (err) =>
					resolve({ status: res.statusCode, response: null, error: err.message }),
				);
			},
		);
		req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
		req.on('error', (err) => resolve({ status: null, response: null, error: err.message }));
		req.end(body);
	});
}

/**
 * `method` (default POST): GET and DELETE carry the payload's fields in the query instead of a body,
 * as the service does for a mid-call tool with such a method.
 */
function deliver(url, payload, { timeoutMs = 5000, headers = {}, method = 'POST' } = {}) {
	const inQuery = method === 'GET' || method === 'DELETE';
	const encode = (target) => {
		if (!inQuery) return Buffer.from(JSON.stringify(payload));
		for (const [key, value] of Object.entries(payload || {})) {
			target.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
		}
		return Buffer.alloc(0);
	};
	return send(url, encode, { method, json: !inQuery, headers, timeoutMs });
}

/** One POST of the exact bytes of a JSON body (already serialised, as it is signed). */
function postBytes(url, body, headers, timeoutMs) {
	return send(url, () => body, { method: 'POST', json: true, headers, timeoutMs });
}

module.exports = { deliver, postBytes };
