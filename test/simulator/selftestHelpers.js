'use strict';
/**
 * What the simulator's self-test files share (selftest.js, selftestFlows.js): requests to it, a
 * receiver of its webhooks, and simulatorSuite(), one simulator per file, reset before each test.
 */
const test = require('node:test');
const http = require('node:http');
const { startSimulator, DEFAULT_API_KEY } = require('./server');

const AUTH = { Authorization: `Bearer ${DEFAULT_API_KEY}` };

async function call(sim, method, path, { body, headers = {}, auth = true, raw } = {}) {
	const init = {
		method,
		headers: { Accept: 'application/json', ...(auth ? AUTH : {}), ...headers },
	};
	if (raw !== undefined) init.body = raw;
	else if (body !== undefined) {
		init.body = JSON.stringify(body);
		init.headers['Content-Type'] = 'application/json';
	}
	const res = await fetch(sim.url + path, init);
	const text = await res.text();
	let json = null;
	try {
		json = text ? JSON.parse(text) : null;
	} catch {
		json = text;
	}
	return { status: res.status, headers: res.headers, body: json };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(fn, timeoutMs = 3000) {
	const start = Date.now();
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
		await sleep(25);
	}
}

/**
 * A local webhook receiver answering JSON, recording what it got (method, path, headers, the body
 * parsed). `delayMs()`, when given, says how long it waits before each answer.
 */
async function startReceiver(answer = { received: true, crm_id: 'abc' }, { delayMs } = {}) {
	const got = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			got.push({
				method: req.method,
				path: req.url,
				headers: req.headers,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
			});
			const reply = () => {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(answer));
			};
			if (delayMs) setTimeout(reply, delayMs());
			else reply();
		});
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		got,
		close: () =>
			new Promise((r) => {
				server.close(r);
				server.closeAllConnections();
			}),
	};
}

const VALID_PIPELINE = {
	name: 'Support line',
	voice_id: 1,
	language_id: 1,
	type: 'outbound',
	mode: 'pipeline',
	timezone: 'Europe/Berlin',
	initial_message: 'Hello {{customer_name}}!',
	system_prompt: 'Be helpful.',
	llm_model_id: 2,
};

/**
 * A top-level test with one simulator for all its subtests (`body(t, sim)`), set back to its seed
 * and these settings before each of them.
 */
function simulatorSuite(name, body) {
	test(name, async (t) => {
		const sim = await startSimulator({ port: 0, rateLimit: false, docProcessingMs: 150 });
		t.after(() => sim.close());
		t.beforeEach(async () => {
			await call(sim, 'POST', '/__sim/reset', { auth: false });
			await call(sim, 'POST', '/__sim/config', {
				auth: false,
				body: { rateLimit: false, docProcessingMs: 150, toolLimit: 10 },
			});
		});
		await body(t, sim);
	});
}

module.exports = {
	AUTH,
	DEFAULT_API_KEY,
	call,
	sleep,
	waitFor,
	startReceiver,
	VALID_PIPELINE,
	simulatorSuite,
};
