'use strict';
/**
 * A local, stateful simulator of the voice/chat assistant service's HTTP API
 * (see docs/api.md, and README.md next to this file).
 *
 *   const { startSimulator } = require('./test/simulator/server');
 *   const sim = await startSimulator({ port: 0, latencyMs: 0 });
 *   // sim.url, sim.port, sim.state, sim.log, sim.setConfig({...}), await sim.close()
 *
 * Only Node's built-in modules are used.
 */
const http = require('node:http');
const { Router } = require('./router');
const { RateLimiter, DEFAULT_RATE_LIMIT } = require('./ratelimit');
const { readBody, decodeBody, parseQuery } = require('./body');
const { createState } = require('./state');
const { HttpError, iso, sleep, isPlainObject } = require('./util');

const DEFAULT_API_KEY = 'sim-test-key-0123456789';

const DEFAULT_CONFIG = {
	port: 0,
	apiKey: DEFAULT_API_KEY,
	rateLimit: { ...DEFAULT_RATE_LIMIT },
	latencyMs: 0,
	docProcessingMs: 1500,
	seed: true,
	toolLimit: 10,
	webhookTimeoutMs: 5000,
	maxBodyBytes: 30 * 1024 * 1024,
	/** Calls started by make_call end this long after they start (0: only /__sim/calls/complete ends them). */
	callLifecycleMs: 0,
	/** A webhook delivery without a 2xx answer is delivered again after each of these (the service: 30, 60, 120 s). */
	redeliveryDelaysMs: [30_000, 60_000, 120_000],
};

/** Keys `setConfig` / POST /__sim/config may change at runtime. */
const RUNTIME_KEYS = [
	'apiKey',
	'rateLimit',
	'latencyMs',
	'docProcessingMs',
	'seed',
	'toolLimit',
	'webhookTimeoutMs',
	'maxBodyBytes',
	'callLifecycleMs',
	'redeliveryDelaysMs',
];

const API_ROUTE_MODULES = [
	require('./routes/profile'),
	require('./routes/catalog'),
	require('./routes/assistants'),
	require('./routes/knowledgebases'),
	require('./routes/tools'),
	require('./routes/leads'),
	require('./routes/phoneNumbers'),
	require('./routes/conversations'),
	require('./routes/calls'),
	require('./routes/messaging'),
	require('./routes/telephony'),
	require('./routes/organisation'),
];
const controlRoutes = require('./routes/control');
const { advanceCalls } = require('./lifecycle');

function mergeConfig(base, partial) {
	if (!isPlainObject(partial)) throw new TypeError('config must be an object');
	const out = { ...base };
	for (const [key, value] of Object.entries(partial)) {
		if (value === undefined) continue;
		if (key === 'rateLimit') {
			if (value === false || value === null) out.rateLimit = false;
			else if (value === true) out.rateLimit = { ...DEFAULT_RATE_LIMIT };
			else if (isPlainObject(value)) {
				const merged = { ...(base.rateLimit || DEFAULT_RATE_LIMIT), ...value };
				for (const k of Object.keys(DEFAULT_RATE_LIMIT)) {
					if (!Number.isFinite(merged[k]) || merged[k] < 0) throw new TypeError(`rateLimit.${k} must be a number >= 0`);
				}
				out.rateLimit = merged;
			} else throw new TypeError('rateLimit must be an object or false');
		} else if (key === 'redeliveryDelaysMs') {
			if (!Array.isArray(value) || value.some((ms) => !Number.isFinite(ms) || ms < 0)) {
				throw new TypeError('redeliveryDelaysMs must be a list of numbers >= 0');
			}
			out.redeliveryDelaysMs = [...value];
		} else if (['latencyMs', 'docProcessingMs', 'toolLimit', 'webhookTimeoutMs', 'maxBodyBytes', 'port', 'callLifecycleMs'].includes(key)) {
			if (!Number.isFinite(value) || value < 0) throw new TypeError(`${key} must be a number >= 0`);
			out[key] = value;
		} else if (key === 'apiKey') {
			if (typeof value !== 'string' || value === '') throw new TypeError('apiKey must be a non-empty string');
			out.apiKey = value;
		} else if (key === 'seed') {
			out.seed = Boolean(value);
		} else {
			throw new TypeError(`unknown option ${key}`);
		}
	}
	return out;
}

/**
 * Faults set with POST /__sim/faults: `{method, path, rate, kinds, seed}`. A request that matches
 * a rule gets one of `kinds` with probability `rate` (a seeded generator, so a run repeats):
 * `refuse-503` / `refuse-500` answer before anything is stored; `lose-502` stores and answers
 * 502; `lose-reset` stores and drops the connection.
 */
function pickFault(sim, method, path) {
	for (const rule of sim.faults || []) {
		if (rule.method !== method || rule.path !== path) continue;
		rule.state = (rule.state + 0x6d2b79f5) >>> 0;
		let t = rule.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		const random = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
		if (random >= rule.rate) continue;
		const kind = rule.kinds[rule.count % rule.kinds.length];
		rule.count++;
		rule.injected[kind] = (rule.injected[kind] || 0) + 1;
		return kind;
	}
	return null;
}

function redactHeaders(headers) {
	const out = { ...headers };
	if (out.authorization !== undefined) {
		out.authorization = /^bearer\s/i.test(out.authorization) ? 'Bearer ***' : '***';
	}
	return out;
}

class Simulator {
	constructor(config) {
		this.config = config;
		this.log = [];
		this.timers = new Set();
		this.limiter = new RateLimiter(config.rateLimit);
		this.api = new Router();
		for (const mod of API_ROUTE_MODULES) mod.register(this.api);
		this.control = new Router();
		controlRoutes.register(this.control);
		this.url = null;
		this.state = null;
	}

	/** Back to the seed (or the bare account fixtures with seed: false). */
	reset() {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.scheduledCalls = new Set();
		this.startedAt = Date.now();
		this.limiter.reset();
		this.state = createState({ seed: this.config.seed, baseUrl: this.url });
	}

	setConfig(partial) {
		for (const key of Object.keys(partial || {})) {
			if (!RUNTIME_KEYS.includes(key)) throw new TypeError(`${key} cannot be changed at runtime`);
		}
		const next = mergeConfig(this.config, partial || {});
		const rateChanged = JSON.stringify(next.rateLimit) !== JSON.stringify(this.config.rateLimit);
		this.config = next;
		if (rateChanged) this.limiter.configure(next.rateLimit);
		return this.config;
	}

	/** Runs `fn` after `ms` unless the simulator is reset or closed first. */
	schedule(ms, fn) {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		if (timer.unref) timer.unref();
		this.timers.add(timer);
	}

	clearLog() {
		const n = this.log.length;
		this.log = [];
		return n;
	}

	async handle(req, res) {
		const hostHeader = req.headers.host || new URL(this.url).host;
		const url = req.url.startsWith('/') ? new URL(`http://${hostHeader}${req.url}`) : new URL(req.url, `http://${hostHeader}`);
		const isControl = url.pathname === '/__sim' || url.pathname.startsWith('/__sim/');
		const entry = isControl
			? null
			: {
					index: this.log.length,
					time: new Date().toISOString(),
					method: req.method,
					path: url.pathname,
					query: parseQuery(url.searchParams),
					headers: redactHeaders(req.headers),
					body: null,
					status: null,
				};
		if (entry) this.log.push(entry);
		const started = performance.now();

		let result;
		try {
			const fault = isControl ? null : pickFault(this, req.method, url.pathname);
			if (fault && fault.startsWith('refuse-')) {
				// refused before anything is stored
				const status = Number(fault.slice('refuse-'.length));
				await readBody(req, this.config.maxBodyBytes);
				result = { status, body: { message: status === 503 ? 'Service Unavailable' : 'Server Error' } };
			} else {
				result = await this.dispatch(req, url, entry, isControl);
			}
			if (fault === 'lose-502') result = { status: 502, body: { message: 'Bad Gateway' } };
			if (fault === 'lose-reset') {
				// stored, then the connection drops before the answer
				if (entry) entry.status = 'reset';
				req.socket.destroy();
				return;
			}
		} catch (err) {
			if (err instanceof HttpError) {
				result = { status: err.status, body: err.body, headers: err.headers };
			} else {
				console.error('[simulator] unexpected error', err);
				result = { status: 500, body: { message: 'Server Error' } };
			}
		}
		if (entry) {
			entry.status = result.status;
			const latency = this.config.latencyMs;
			if (latency > 0) await sleep(latency);
		}
		if (!isControl) advanceCalls(this, controlRoutes.completeCall);
		this.send(res, req.method, result);
		// time this request spent in the simulator, added latency included
		if (entry) entry.durationMs = performance.now() - started;
	}

	async dispatch(req, url, entry, isControl) {
		const { buffer, size, tooLarge } = await readBody(req, this.config.maxBodyBytes);
		const contentType = req.headers['content-type'] || '';
		let decoded = null;
		let decodeError = null;
		if (tooLarge) {
			decodeError = new HttpError(413, { message: 'Payload Too Large' });
			if (entry) entry.body = { tooLarge: true, size };
		} else {
			try {
				decoded = decodeBody(buffer, contentType, { lenientJson: isControl });
				if (entry) entry.body = decoded.logBody;
			} catch (err) {
				decodeError = err;
				if (entry) entry.body = err.logBody !== undefined ? err.logBody : null;
			}
		}

		const rateHeaders = {};
		if (!isControl && url.pathname.startsWith('/api/')) {
			const verdict = this.limiter.take(Date.now());
			Object.assign(rateHeaders, verdict.headers);
			if (!verdict.allowed) {
				throw new HttpError(429, { message: 'Too Many Attempts.', retry_after: verdict.retryAfter }, rateHeaders);
			}
		}

		const router = isControl ? this.control : this.api;
		const match = router.match(req.method, url.pathname);
		if (!match) throw new HttpError(404, { message: 'Not Found' }, rateHeaders);
		if (match.allowed) {
			throw new HttpError(
				405,
				{
					message: `The ${req.method} method is not supported for route ${url.pathname.replace(/^\//, '')}. Supported methods: ${match.allowed.join(', ')}.`,
				},
				{ ...rateHeaders, Allow: match.allowed.join(', ') },
			);
		}

		if (!isControl && url.pathname.startsWith('/api/user/')) this.authenticate(req, rateHeaders);
		if (decodeError) {
			decodeError.headers = { ...rateHeaders, ...decodeError.headers };
			throw decodeError;
		}

		const ctx = {
			sim: this,
			state: this.state,
			config: this.config,
			req,
			method: req.method,
			url,
			path: url.pathname,
			baseUrl: `http://${url.host}`,
			params: match.params,
			query: parseQuery(url.searchParams),
			body: decoded.body,
			files: decoded.files,
			multipart: decoded.multipart,
			headers: req.headers,
		};
		let result;
		try {
			result = await match.route.handler(ctx);
		} catch (err) {
			if (err instanceof HttpError) err.headers = { ...rateHeaders, ...err.headers };
			throw err;
		}
		return { ...result, headers: { ...rateHeaders, ...(result.headers || {}) } };
	}

	authenticate(req, headers) {
		const header = req.headers.authorization || '';
		const m = /^Bearer\s+(.+)$/i.exec(header.trim());
		if (!m || m[1].trim() !== this.config.apiKey) {
			throw new HttpError(401, { message: 'Unauthenticated.' }, headers);
		}
		if (this.state.apiKeys[0]) this.state.apiKeys[0].last_used_at = iso();
	}

	send(res, method, result) {
		const headers = { 'Cache-Control': 'no-cache, private', ...(result.headers || {}) };
		let payload = null;
		if (result.raw !== undefined) {
			payload = result.raw;
		} else if (result.body !== undefined) {
			payload = Buffer.from(JSON.stringify(result.body));
			headers['Content-Type'] = 'application/json';
		}
		if (payload) headers['Content-Length'] = payload.length;
		res.writeHead(result.status || 200, headers);
		res.end(method === 'HEAD' ? undefined : payload || undefined);
	}
}

/**
 * Starts the simulator on 127.0.0.1.
 * @param {object} [options] port, apiKey, rateLimit ({perMinute, burst, burstWindowMs, windowMs} or false),
 *   latencyMs, docProcessingMs, seed, toolLimit, webhookTimeoutMs, maxBodyBytes
 * @returns {Promise<{url, port, state, log, close(), setConfig(partial), reset(), clearLog(), simulator}>}
 */
async function startSimulator(options = {}) {
	const config = mergeConfig(DEFAULT_CONFIG, options || {});
	const sim = new Simulator(config);
	const server = http.createServer((req, res) => {
		sim.handle(req, res).catch((err) => {
			console.error('[simulator] failed to answer', err);
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ message: 'Server Error' }));
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(config.port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = server.address().port;
	sim.url = `http://127.0.0.1:${port}`;
	sim.reset();

	let closed = null;
	return {
		url: sim.url,
		port,
		get state() {
			return sim.state;
		},
		get log() {
			return sim.log;
		},
		get config() {
			return sim.config;
		},
		simulator: sim,
		setConfig: (partial) => sim.setConfig(partial),
		reset: () => sim.reset(),
		clearLog: () => sim.clearLog(),
		close() {
			if (!closed) {
				for (const t of sim.timers) clearTimeout(t);
				sim.timers.clear();
				closed = new Promise((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				});
			}
			return closed;
		},
	};
}

module.exports = { startSimulator, DEFAULT_API_KEY, DEFAULT_CONFIG };
