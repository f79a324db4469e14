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
const { countsPerBody, pickFault } = require('./faults');
const { HttpError, iso, sleep, isPlainObject, setServiceZone } = require('./util');

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
	/** Recordings on a second port of 127.0.0.1 (another origin than the API's), where every recording_url points. */
	recordingHost: false,
	/** While true, requests for recordings wait (unanswered) until it is set false again. */
	holdRecordings: false,
	/** The order of the lead list: SPEC promises none; `newest` (id descending) or `oldest` first. */
	leadOrder: 'newest',
	/**
	 * What a call's `webhook_response` records (SPEC: "not shown beyond being objects"): `body`, the
	 * receiver's answer alone (nothing when no answer came); `wrapped`, `{status, body}` for any answer
	 * and `{error}` when the delivery failed (refused, timed out).
	 */
	webhookResponseShape: 'body',
	/**
	 * Minutes the zone-less times of the lists (`created_at` of calls, leads, conversations) are ahead
	 * of UTC: SPEC shows them without a zone; whole quarter hours from -720 to +840.
	 */
	serviceZoneMinutes: 0,
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
	'holdRecordings',
	'leadOrder',
	'webhookResponseShape',
	'serviceZoneMinutes',
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
					if (!Number.isFinite(merged[k]) || merged[k] < 0)
						throw new TypeError(`rateLimit.${k} must be a number >= 0`);
				}
				out.rateLimit = merged;
			} else throw new TypeError('rateLimit must be an object or false');
		} else if (key === 'redeliveryDelaysMs') {
			if (!Array.isArray(value) || value.some((ms) => !Number.isFinite(ms) || ms < 0)) {
				throw new TypeError('redeliveryDelaysMs must be a list of numbers >= 0');
			}
			out.redeliveryDelaysMs = [...value];
		} else if (
			[
				'latencyMs',
				'docProcessingMs',
				'toolLimit',
				'webhookTimeoutMs',
				'maxBodyBytes',
				'port',
				'callLifecycleMs',
			].includes(key)
		) {
			if (!Number.isFinite(value) || value < 0) throw new TypeError(`${key} must be a number >= 0`);
			out[key] = value;
		} else if (key === 'serviceZoneMinutes') {
			if (!Number.isInteger(value) || value % 15 !== 0 || value < -720 || value > 840)
				throw new TypeError('serviceZoneMinutes must be whole quarter hours from -720 to 840');
			out.serviceZoneMinutes = value;
		} else if (key === 'apiKey') {
			if (typeof value !== 'string' || value === '')
				throw new TypeError('apiKey must be a non-empty string');
			out.apiKey = value;
		} else if (key === 'leadOrder') {
			if (value !== 'newest' && value !== 'oldest')
				throw new TypeError('leadOrder must be "newest" or "oldest"');
			out.leadOrder = value;
		} else if (key === 'webhookResponseShape') {
			if (value !== 'body' && value !== 'wrapped')
				throw new TypeError('webhookResponseShape must be "body" or "wrapped"');
			out.webhookResponseShape = value;
		} else if (key === 'seed' || key === 'recordingHost' || key === 'holdRecordings') {
			out[key] = Boolean(value);
		} else {
			throw new TypeError(`unknown option ${key}`);
		}
	}
	return out;
}

/** Where the recordings are served (`recording_url` of the calls), on either origin. */
const RECORDINGS_PREFIX = '/__sim/recordings/';

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
		setServiceZone(config.serviceZoneMinutes ?? 0);
		this.log = [];
		/** Requests for recordings (either origin): what each was sent, whether it carried the API key. */
		this.recordingLog = [];
		/** The origin of the recordings when `recordingHost` is on (set by startSimulator). */
		this.recordingUrl = null;
		this.timers = new Set();
		/** Requests for recordings held by `holdRecordings`: each one's release. */
		this.heldRecordings = [];
		this.limiter = new RateLimiter(config.rateLimit);
		this.api = new Router();
		for (const mod of API_ROUTE_MODULES) mod.register(this.api);
		this.control = new Router();
		controlRoutes.register(this.control);
		require('./campaignRun').register(this.control);
		require('./routes/whatsappStatus').register(this.control);
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
		this.state = createState({
			seed: this.config.seed,
			baseUrl: this.url,
			recordingBaseUrl: this.recordingUrl,
		});
	}

	setConfig(partial) {
		for (const key of Object.keys(partial || {})) {
			if (!RUNTIME_KEYS.includes(key)) throw new TypeError(`${key} cannot be changed at runtime`);
		}
		const next = mergeConfig(this.config, partial || {});
		const rateChanged = JSON.stringify(next.rateLimit) !== JSON.stringify(this.config.rateLimit);
		this.config = next;
		setServiceZone(next.serviceZoneMinutes);
		if (rateChanged) this.limiter.configure(next.rateLimit);
		if (!next.holdRecordings) this.releaseRecordings();
		return this.config;
	}

	/** Answers the requests for recordings that `holdRecordings` held. */
	releaseRecordings() {
		const held = this.heldRecordings;
		this.heldRecordings = [];
		for (const release of held) release();
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
		this.recordingLog = [];
		return n;
	}

	/** An entry of recordingLog: the origin asked, the headers (authorization masked), whether the API key was sent. */
	recordingEntry(req, url) {
		const key = this.config.apiKey;
		const carriesKey =
			req.url.includes(key) ||
			Object.values(req.headers).some((value) => String(value).includes(key));
		const entry = {
			index: this.recordingLog.length,
			time: new Date().toISOString(),
			method: req.method,
			origin: url.origin,
			path: url.pathname,
			headers: redactHeaders(req.headers),
			carriesKey,
			status: null,
		};
		this.recordingLog.push(entry);
		return entry;
	}

	async handle(req, res) {
		const hostHeader = req.headers.host || new URL(this.url).host;
		const url = req.url.startsWith('/')
			? new URL(`http://${hostHeader}${req.url}`)
			: new URL(req.url, `http://${hostHeader}`);
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
		const isRecording = url.pathname.startsWith(RECORDINGS_PREFIX);
		const recording = isRecording ? this.recordingEntry(req, url) : null;
		const started = performance.now();
		if (recording && this.config.holdRecordings) {
			// a slow file storage, as slow as the test wants: answered once the hold is lifted
			recording.held = true;
			await new Promise((release) => this.heldRecordings.push(release));
		}

		let result;
		try {
			// the control API gets no faults, but for the recordings (the service's file storage)
			const faulted = !isControl || isRecording;
			// a rule that counts faults per body reads the body first (dispatch takes it from there)
			const read =
				faulted && countsPerBody(this.faults, req.method, url.pathname)
					? await readBody(req, this.config.maxBodyBytes)
					: null;
			const fault = faulted
				? pickFault(this.faults, req.method, url.pathname, read ? read.buffer.toString('utf8') : '')
				: null;
			if (fault && fault.startsWith('refuse-')) {
				// refused before anything is stored
				const status = Number(fault.slice('refuse-'.length));
				if (!read) await readBody(req, this.config.maxBodyBytes);
				result = {
					status,
					body: {
						message:
							status === 503
								? 'Service Unavailable'
								: status === 502
									? 'Bad Gateway'
									: 'Server Error',
					},
				};
			} else {
				result = await this.dispatch(req, url, entry, isControl, read);
			}
			if (fault === 'lose-502') result = { status: 502, body: { message: 'Bad Gateway' } };
			if (fault === 'lose-reset') {
				// stored, then the connection drops before the answer
				if (entry) entry.status = 'reset';
				if (recording) recording.status = 'reset';
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
		if (recording) recording.status = result.status;
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

	async dispatch(req, url, entry, isControl, read = null) {
		const { buffer, size, tooLarge } = read ?? (await readBody(req, this.config.maxBodyBytes));
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
				// what it asked (whole seconds) against when its window really opens
				if (entry)
					Object.assign(entry, {
						retryAfter: verdict.retryAfter,
						windowOpensInMs: verdict.opensInMs,
					});
				throw new HttpError(
					429,
					{ message: 'Too Many Attempts.', retry_after: verdict.retryAfter },
					rateHeaders,
				);
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

function listen(server, port) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve(server.address().port);
		});
	});
}

/**
 * Keeps idle connections open longer than clients keep them (Node's fetch: 4 s; the server's default
 * is 5 s): on a busy machine a late timer let the server close a connection just as a client sent
 * its next request on it ("fetch failed", ECONNRESET). The client now always closes first.
 */
function keepAlive(server) {
	server.keepAliveTimeout = 65_000;
	server.headersTimeout = 66_000;
	return server;
}

function closeServer(server) {
	return new Promise((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

/**
 * Starts the simulator on 127.0.0.1.
 * @param {object} [options] port, apiKey, rateLimit ({perMinute, burst, burstWindowMs, windowMs} or false),
 *   latencyMs, docProcessingMs, seed, toolLimit, webhookTimeoutMs, maxBodyBytes, callLifecycleMs,
 *   redeliveryDelaysMs, recordingHost, holdRecordings
 * @returns {Promise<{url, port, recordingUrl, state, log, recordingLog, close(), setConfig(partial), reset(), clearLog(), simulator}>}
 */
async function startSimulator(options = {}) {
	const config = mergeConfig(DEFAULT_CONFIG, options || {});
	const sim = new Simulator(config);
	const answer = (req, res) => {
		sim.handle(req, res).catch((err) => {
			console.error('[simulator] failed to answer', err);
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ message: 'Server Error' }));
		});
	};
	const server = keepAlive(http.createServer(answer));
	const port = await listen(server, config.port);
	sim.url = `http://127.0.0.1:${port}`;
	// the recordings' own origin (like the service's file storage): nothing but the recordings there
	let recordingServer = null;
	if (config.recordingHost) {
		recordingServer = keepAlive(
			http.createServer((req, res) => {
				if ((req.url || '').startsWith(RECORDINGS_PREFIX)) return answer(req, res);
				res
					.writeHead(404, { 'Content-Type': 'application/json' })
					.end(JSON.stringify({ message: 'Not Found' }));
			}),
		);
		try {
			sim.recordingUrl = `http://127.0.0.1:${await listen(recordingServer, 0)}`;
		} catch (err) {
			await closeServer(server);
			throw err;
		}
	}
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
		/** Requests for recordings, on either origin (see Simulator.recordingEntry). */
		get recordingLog() {
			return sim.recordingLog;
		},
		/** The origin of the recordings with `recordingHost`, else null (they are served at `url`). */
		recordingUrl: sim.recordingUrl,
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
				sim.releaseRecordings();
				closed = Promise.all([
					closeServer(server),
					recordingServer && closeServer(recordingServer),
				]).then(() => undefined);
			}
			return closed;
		},
	};
}

module.exports = { startSimulator, DEFAULT_API_KEY, DEFAULT_CONFIG };
