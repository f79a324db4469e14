'use strict';
/**
 * Outgoing webhook delivery: a JSON POST with Node's http/https client. The answer of
 * the receiver is returned parsed as JSON when it is JSON, else as text.
 */
const http = require('node:http');
const https = require('node:https');

/**
 * `method` (default POST): GET and DELETE carry the payload's fields in the query instead of a body,
 * as the service does for a mid-call tool with such a method.
 */
function deliver(url, payload, { timeoutMs = 5000, headers = {}, method = 'POST' } = {}) {
	return new Promise((resolve) => {
		let target;
		try {
			target = new URL(url);
		} catch {
			resolve({ status: null, response: null, error: `invalid URL: ${url}` });
			return;
		}
		const inQuery = method === 'GET' || method === 'DELETE';
		if (inQuery) {
			for (const [key, value] of Object.entries(payload || {})) {
				target.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
			}
		}
		const body = inQuery ? Buffer.alloc(0) : Buffer.from(JSON.stringify(payload));
		const client = target.protocol === 'https:' ? https : http;
		const req = client.request(
			target,
			{
				method,
				headers: {
					...(inQuery ? {} : { 'Content-Type': 'application/json' }),
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

module.exports = { deliver };
