import type {
	FunctionsBase,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { getClock } from './clock';
import { waitWithoutSlot } from './concurrency';
import { CREDENTIAL_TYPE, credentialSettings } from './credentials';
import type { RequestContext } from './credentials';
import {
	isErrorAnswer,
	statusOfErrorAnswer,
	toApiError,
	toConnectionError,
	toRedirectError,
} from './errors';
import { getLimiter } from './rateLimiter';
import type { SlidingWindowLimiter } from './rateLimiter';

/** One request to the service: authentication, rate limit, the retry decision and error mapping. */

export interface ApiRequestOptions {
	qs?: IDataObject;
	/** A JSON body, or a multipart body built with the platform's FormData. */
	body?: IDataObject | IDataObject[] | FormData;
	/** Item the request is made for; errors name it. */
	itemIndex?: number;
	/** Per-attempt timeout in milliseconds (default 60 s). */
	timeout?: number;
	/** When the request is sent again (see RetryPolicy); default: `safe` for GET, PUT and DELETE, `notAfterLostAnswer` for POST and PATCH. */
	retry?: RetryPolicy;
	/** Filled in by the request: whether an attempt's answer was lost (see RequestOutcome). */
	outcome?: RequestOutcome;
	/** What to check before running a request again whose answer was lost (requests not sent again after a lost answer). */
	checkBeforeRetry?: string;
	/**
	 * A limit of the endpoint on top of the credential's budget (e.g. AI
	 * replies: 5 per minute), kept per credential like the budget itself.
	 */
	endpointLimit?: EndpointLimit;
	/**
	 * A create with a natural key (`naturalKey`): after a lost answer (a 502 or
	 * 504, a broken connection) and its backoff, the object is looked up before
	 * the create is sent again. What is found is the answer
	 * (`outcome.foundAfterLostAnswer`): one read instead of a resend and a read
	 * of its "duplicate" answer. Nothing found, or a failed look-up: sent again.
	 * After a 500, which most often stored nothing, it is sent again at once.
	 */
	lookUpAfterLostAnswer?: () => Promise<IDataObject | undefined>;
}

/**
 * When a request is sent again. Every request is sent again when it certainly
 * did not reach the service (no connection was made) or was refused with a 429.
 * An answer is lost when it is a 500, 502 or 504 or the connection broke after
 * the request was sent: the service may have carried the request out.
 * - `safe`: sending it twice is harmless; sent again after a lost answer (not
 *   after a 500) and after a 503.
 * - `naturalKey`: the body carries a key the service refuses twice (a lead's
 *   phone number in its campaign); sent again after a lost answer, a 500
 *   included, and a "duplicate" answer to the resend is the earlier attempt's
 *   object (actions/createByKey.ts).
 * - `notAfterLostAnswer`: sent again after a 503, never after a lost answer:
 *   the item fails and says what to check (`checkBeforeRetry`).
 * - `sendOnce`: it spends money or reaches a person; never sent again after it
 *   may have reached the service, only after a 429 or when no connection was
 *   made (not after a 503 either).
 */
export type RetryPolicy = 'safe' | 'naturalKey' | 'notAfterLostAnswer' | 'sendOnce';

/** What the request tells its caller besides its answer or its error. */
export interface RequestOutcome {
	/**
	 * The answer to an attempt of this request (an earlier one or the one that
	 * failed) was lost: a 500, 502 or 504, or the connection broke after the
	 * request was sent. The service may have carried it out.
	 */
	lostAnswer: boolean;
	/** The answer is the object looked up after a lost answer (see `lookUpAfterLostAnswer`). */
	foundAfterLostAnswer?: boolean;
}

/** An endpoint's own rate limit, as documented by the service. */
export interface EndpointLimit {
	/** Name of the limit; endpoints that share a limit share a name. */
	name: string;
	/** Requests allowed in any minute. */
	perMinute: number;
	/** Requests allowed in any `burstWindowMs`. */
	burst: number;
	burstWindowMs: number;
}

/** The endpoint limits the service documents. */
export const ENDPOINT_LIMITS = {
	/** Generate AI Reply: 5 requests per minute per token. */
	aiReply: { name: 'ai-reply', perMinute: 5, burst: 5, burstWindowMs: 60_000 },
	/** WhatsApp sends: 5 requests per second per user. */
	whatsappSend: { name: 'whatsapp-send', perMinute: 300, burst: 5, burstWindowMs: 1_000 },
} satisfies Record<string, EndpointLimit>;

export const RETRY = {
	/** Attempts of one request, the first included. */
	maxAttempts: 8,
	/** Total time one request may spend waiting between attempts. */
	maxTotalWaitMs: 5 * 60_000,
	/** Exponential backoff: base × 2^(attempt-1), capped, with full jitter on the upper half. */
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

const DEFAULT_TIMEOUT_MS = 60_000;

/** Codes of failures where the request never reached the service. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);
/** Codes of failures where the request may have been applied. */
const UNCERTAIN_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'ERR_CANCELED',
]);

function errorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const candidate = current as { code?: unknown; cause?: unknown; message?: unknown };
		if (typeof candidate.code === 'string' && /^E[A-Z_]+$/.test(candidate.code))
			return candidate.code;
		if (typeof candidate.message === 'string') {
			const match = /\b(ECONN[A-Z]+|ETIMEDOUT|ESOCKETTIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)\b/.exec(
				candidate.message,
			);
			if (match) return match[1];
			if (/timeout of \d+ms exceeded/i.test(candidate.message)) return 'ETIMEDOUT';
		}
		current = candidate.cause;
	}
	return undefined;
}

function backoffDelay(attempt: number): number {
	const exp = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(exp / 2 + (getClock().random() * exp) / 2);
}

/** Seconds to wait, from `retry_after` in the body or the `Retry-After` header. */
export function retryAfterMs(body: unknown, headers: IDataObject | undefined): number | undefined {
	const fromBody = body && typeof body === 'object' ? (body as IDataObject).retry_after : undefined;
	const headerValue = headers
		? Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1]
		: undefined;
	for (const value of [fromBody, headerValue]) {
		if (value === undefined || value === null || value === '') continue;
		const seconds = Number(value);
		if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
		const date = Date.parse(String(value));
		if (!Number.isNaN(date)) return Math.max(0, date - getClock().now());
	}
	return undefined;
}

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	const text = body.trim();
	if (!text) return {};
	if (text.startsWith('{') || text.startsWith('[')) {
		try {
			return JSON.parse(text);
		} catch {
			return body;
		}
	}
	return body;
}

/** The warning for a request whose answer was lost and that is not sent again. */
export function sentMayHaveApplied(checkBeforeRetry?: string): string {
	return `The request was sent and may have been carried out; ${checkBeforeRetry ?? 'check the account'} before running it again.`;
}

function isFormData(body: unknown): body is FormData {
	return typeof FormData !== 'undefined' && body instanceof FormData;
}

/**
 * Sends one attempt. With the credential read for this node run, the request
 * carries its Authorization header (the credential's `authenticate`: Bearer
 * and the API key) and goes through n8n's plain HTTP helper: n8n's
 * authenticated helper reads the credential from the database, decrypts it and
 * evaluates the header's expression again for every request, about 0.8 ms of
 * CPU per request (docs/performance.md).
 */
async function send(
	ctx: RequestContext,
	request: IHttpRequestOptions,
	authorization: string | undefined,
): Promise<unknown> {
	if (authorization && typeof ctx.helpers.httpRequest === 'function') {
		return await ctx.helpers.httpRequest({
			...request,
			headers: { ...request.headers, Authorization: authorization },
		});
	}
	return await ctx.helpers.httpRequestWithAuthentication.call(
		ctx as unknown as FunctionsBase & IExecuteFunctions,
		CREDENTIAL_TYPE,
		request,
	);
}

/**
 * The limiter of the credential of this node run (its budget and the service's
 * answer time), or undefined when the credential cannot be read (each item
 * then reports that itself).
 */
export async function limiterOfRun(ctx: RequestContext): Promise<SlidingWindowLimiter | undefined> {
	try {
		const settings = await credentialSettings(ctx);
		return getLimiter(settings.limiterKey, {
			perMinute: settings.perMinute,
			burst: settings.burst,
		});
	} catch {
		return undefined;
	}
}

/**
 * The one function that speaks HTTP to the service. It authenticates with the
 * credential, waits for the credential's rate-limit budget, retries what is
 * safe to retry and turns every failure into a NodeApiError with the
 * service's own text.
 */
export async function apiRequest<T = unknown>(
	this: RequestContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	const settings = await credentialSettings(this);
	const limiter = getLimiter(settings.limiterKey, {
		perMinute: settings.perMinute,
		burst: settings.burst,
	});
	const policy: RetryPolicy =
		options.retry ?? (method === 'POST' || method === 'PATCH' ? 'notAfterLostAnswer' : 'safe');
	// sent again after a lost answer
	const resendsLost = policy === 'safe' || policy === 'naturalKey';
	const outcome = options.outcome;
	if (outcome) {
		outcome.lostAnswer = false;
		outcome.foundAfterLostAnswer = false;
	}
	const lookUp = async (): Promise<IDataObject | undefined> => {
		if (!options.lookUpAfterLostAnswer || policy !== 'naturalKey') return undefined;
		const found = await options.lookUpAfterLostAnswer().catch(() => undefined);
		if (found && outcome) outcome.foundAfterLostAnswer = true;
		return found;
	};
	const clock = getClock();
	const node = this.getNode();
	const multipart = isFormData(options.body);

	const request: IHttpRequestOptions = {
		method,
		baseURL: settings.baseUrl,
		url: path,
		headers: multipart
			? { Accept: 'application/json' }
			: { Accept: 'application/json', 'Content-Type': 'application/json' },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
	};
	// a redirect is not followed: n8n's HTTP client would carry the Authorization header to
	// wherever it points (and keep a copy of every body byte to replay it)
	request.disableFollowRedirect = true;
	if (options.qs && Object.keys(options.qs).length) request.qs = options.qs;
	if (options.body !== undefined) {
		request.body = options.body as IHttpRequestOptions['body'];
		if (!multipart) request.json = true;
	} else {
		request.json = true;
	}

	const endpointLimit = options.endpointLimit;
	const endpointLimiter = endpointLimit
		? getLimiter(`${settings.limiterKey}#${endpointLimit.name}`, endpointLimit)
		: undefined;

	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		// the endpoint's own window first: waiting there must not hold a slot of the shared budget
		const endpointGrant = endpointLimiter ? await endpointLimiter.acquire() : undefined;
		const grant = await limiter.acquire();
		let response: IN8nHttpFullResponse;
		const sentAt = clock.now();
		try {
			response = (await send(this, request, settings.authorization)) as IN8nHttpFullResponse;
			limiter.observeLatency(clock.now() - sentAt);
		} catch (error) {
			const code = errorCode(error);
			if (code !== undefined && NOT_SENT_CODES.has(code)) {
				grant.refund();
				endpointGrant?.refund();
			} else {
				grant.settle();
				endpointGrant?.settle();
			}
			const notSent = code !== undefined && NOT_SENT_CODES.has(code);
			const retryable = notSent || (resendsLost && code !== undefined && UNCERTAIN_CODES.has(code));
			const delay = backoffDelay(attempt);
			if (retryable && attempt < RETRY.maxAttempts && waited + delay <= RETRY.maxTotalWaitMs) {
				if (!notSent && outcome) outcome.lostAnswer = true;
				waited += delay;
				// the wait does not hold the item's slot: other items are sent meanwhile
				await waitWithoutSlot(this, options.itemIndex, () => clock.sleep(delay));
				const found = notSent ? undefined : await lookUp();
				if (found) return found as T;
				continue;
			}
			// never pass the original error on: it carries the request with its headers
			const failure = toConnectionError(node, code, attempt, {
				timeoutMs: request.timeout ?? DEFAULT_TIMEOUT_MS,
				retried: resendsLost,
				itemIndex: options.itemIndex,
				checkBeforeRetry: options.checkBeforeRetry,
			});
			if (outcome && (code === undefined || !NOT_SENT_CODES.has(code))) outcome.lostAnswer = true;
			throw failure;
		}

		const status = response.statusCode;
		// a refused request does not count against the service's windows
		if (status === 429) {
			grant.refund();
			endpointGrant?.refund();
		} else {
			grant.settle();
			endpointGrant?.settle();
		}
		const body = parseBody(response.body);

		// a request with a natural key may even be sent again after a 500: a second copy is refused
		const serverError = status === 500 && policy === 'naturalKey';
		if (status === 429 || status === 502 || status === 503 || status === 504 || serverError) {
			const retryable =
				status === 429 || (policy !== 'sendOnce' && (status === 503 || resendsLost));
			let delay = backoffDelay(attempt);
			if (status === 429 || status === 503) {
				const asked = retryAfterMs(body, response.headers as IDataObject);
				if (asked !== undefined) delay = asked;
			}
			if (retryable && attempt < RETRY.maxAttempts && waited + delay <= RETRY.maxTotalWaitMs) {
				waited += delay;
				if (status !== 429 && status !== 503 && outcome) outcome.lostAnswer = true;
				// a 429: the account's budget is spent (maybe by other processes): pause, and take a smaller share
				if (status === 429) {
					if (endpointLimiter && endpointGrant)
						endpointLimiter.refused(endpointGrant, clock.now() + delay);
					else limiter.refused(grant, clock.now() + delay);
				}
				// a 429 pauses the whole budget: the item keeps its slot (and its turn); any other
				// failure's backoff gives it back, so other items are sent meanwhile
				if (status === 429) await clock.sleep(delay);
				else await waitWithoutSlot(this, options.itemIndex, () => clock.sleep(delay));
				const found = status === 502 || status === 504 ? await lookUp() : undefined;
				if (found) return found as T;
				continue;
			}
		}

		if (status >= 300 && status < 400) {
			const headers = (response.headers ?? {}) as IDataObject;
			throw toRedirectError(node, status, headers.location, settings.baseUrl, options.itemIndex);
		}
		if (status >= 400) {
			const error = toApiError(node, status, body, options.itemIndex);
			const lost = status === 500 || status === 502 || status === 504;
			if (lost && outcome) outcome.lostAnswer = true;
			// an answer that may hide a carried-out request: not sent again, so say what to check
			if (lost && !resendsLost) {
				error.description = [error.description, sentMayHaveApplied(options.checkBeforeRetry)]
					.filter(Boolean)
					.join(' ');
			}
			throw error;
		}
		// the service's error shapes count as errors also when they come with HTTP 200
		if (isErrorAnswer(body)) {
			throw toApiError(node, statusOfErrorAnswer(status, body), body, options.itemIndex);
		}
		return body as T;
	}
}
