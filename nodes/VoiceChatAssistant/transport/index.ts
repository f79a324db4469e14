import type {
	FunctionsBase,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';

import { getClock } from './clock';
import { isStatusFalse, toApiError, toConnectionError } from './errors';
import { getLimiter } from './rateLimiter';

export const CREDENTIAL_TYPE = 'voiceChatAssistantApi';

export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequestOptions {
	qs?: IDataObject;
	/** A JSON body, or a multipart body built with the platform's FormData. */
	body?: IDataObject | IDataObject[] | FormData;
	/** Item the request is made for; errors name it. */
	itemIndex?: number;
	/**
	 * Whether sending the request twice is harmless. Defaults to true for
	 * GET, PUT and DELETE. Requests that are not idempotent are not retried
	 * after a timeout, a connection reset, a 502 or a 504: they may have been
	 * applied.
	 */
	idempotent?: boolean;
	/** Per-attempt timeout in milliseconds (default 60 s). */
	timeout?: number;
}

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
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Codes of failures where the request may have been applied. */
const UNCERTAIN_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'EPIPE', 'ERR_CANCELED']);

/** Removes a trailing slash and a trailing `/api` from the credential's base URL. */
export function normalizeBaseUrl(value: unknown): string {
	let url = String(value ?? '').trim();
	if (!url) url = 'https://app.famulor.de';
	url = url.replace(/\/+$/, '');
	url = url.replace(/\/api$/i, '');
	return url.replace(/\/+$/, '');
}

interface CredentialSettings {
	baseUrl: string;
	limiterKey: string;
	perMinute: number;
	burst: number;
}

async function credentialSettings(ctx: RequestContext): Promise<CredentialSettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const credentialId = ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id;
	const number = (value: unknown, fallback: number) => {
		const n = Number(value);
		return Number.isFinite(n) && n >= 1 ? n : fallback;
	};
	return {
		baseUrl,
		// the credential's id, never its key, identifies the shared budget
		limiterKey: `${credentialId ?? 'unsaved'}@${baseUrl}`,
		perMinute: number(credentials.requestsPerMinute, 100),
		burst: number(credentials.burst, 20),
	};
}

function errorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const candidate = current as { code?: unknown; cause?: unknown; message?: unknown };
		if (typeof candidate.code === 'string' && /^E[A-Z_]+$/.test(candidate.code)) return candidate.code;
		if (typeof candidate.message === 'string') {
			const match = /\b(ECONN[A-Z]+|ETIMEDOUT|ESOCKETTIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)\b/.exec(candidate.message);
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

function isFormData(body: unknown): body is FormData {
	return typeof FormData !== 'undefined' && body instanceof FormData;
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
	const idempotent = options.idempotent ?? (method !== 'POST' && method !== 'PATCH');
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
	// a redirect-following request keeps a copy of every body byte it writes (to
	// replay it); the service does not redirect uploads, so a file is sent uncopied
	if (multipart) request.disableFollowRedirect = true;
	if (options.qs && Object.keys(options.qs).length) request.qs = options.qs;
	if (options.body !== undefined) {
		request.body = options.body as IHttpRequestOptions['body'];
		if (!multipart) request.json = true;
	} else {
		request.json = true;
	}

	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		const grant = await limiter.acquire();
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this as unknown as FunctionsBase & IExecuteFunctions,
				CREDENTIAL_TYPE,
				request,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const code = errorCode(error);
			if (code !== undefined && NOT_SENT_CODES.has(code)) grant.refund();
			else grant.settle();
			const retryable = code !== undefined && (NOT_SENT_CODES.has(code) || (idempotent && UNCERTAIN_CODES.has(code)));
			const delay = backoffDelay(attempt);
			if (retryable && attempt < RETRY.maxAttempts && waited + delay <= RETRY.maxTotalWaitMs) {
				waited += delay;
				await clock.sleep(delay);
				continue;
			}
			// never pass the original error on: it carries the request with its headers
			throw toConnectionError(node, code, attempt, {
				timeoutMs: request.timeout ?? DEFAULT_TIMEOUT_MS,
				retried: idempotent,
				itemIndex: options.itemIndex,
			});
		}

		const status = response.statusCode;
		// a refused request does not count against the service's windows
		if (status === 429) grant.refund();
		else grant.settle();
		const body = parseBody(response.body);

		if (status === 429 || status === 502 || status === 503 || status === 504) {
			const retryable = status === 429 || status === 503 || idempotent;
			let delay = backoffDelay(attempt);
			if (status === 429 || status === 503) {
				const asked = retryAfterMs(body, response.headers as IDataObject);
				if (asked !== undefined) delay = asked;
			}
			if (retryable && attempt < RETRY.maxAttempts && waited + delay <= RETRY.maxTotalWaitMs) {
				waited += delay;
				if (status === 429) limiter.pauseUntil(clock.now() + delay);
				await clock.sleep(delay);
				continue;
			}
		}

		if (status >= 400 || isStatusFalse(body)) {
			throw toApiError(node, status, body, options.itemIndex);
		}
		return body as T;
	}
}

/** The pagination envelope of the list endpoints. */
export interface PageEnvelope<T = IDataObject> {
	current_page?: number;
	data: T[];
	next_page_url?: string | null;
	last_page?: number;
	total?: number;
}

export const MAX_PER_PAGE = 100;

/** Page number of a `next_page_url`. */
function nextPageNumber(nextPageUrl: string, current: number): number {
	const match = /[?&]page=(\d+)/.exec(nextPageUrl);
	return match ? Number(match[1]) : current + 1;
}

/**
 * Reads a paginated list. With `limit` undefined it reads every page
 * (per_page 100) until `next_page_url` is null; with a limit it stops as soon
 * as it has enough. The next page is requested on the credential's base URL
 * (only its page number is taken from `next_page_url`), so the API key is
 * never sent to a host named by a response.
 */
export async function apiRequestAllItems<T = IDataObject>(
	this: RequestContext,
	path: string,
	qs: IDataObject,
	limit: number | undefined,
	itemIndex?: number,
): Promise<T[]> {
	const results: T[] = [];
	const perPage = limit === undefined ? MAX_PER_PAGE : Math.max(1, Math.min(MAX_PER_PAGE, limit));
	let page = 1;
	for (;;) {
		const envelope = await apiRequest.call<RequestContext, [IHttpRequestMethods, string, ApiRequestOptions], Promise<PageEnvelope<T>>>(
			this,
			'GET',
			path,
			{ qs: { ...qs, per_page: perPage, page }, itemIndex },
		);
		const data = Array.isArray(envelope?.data) ? envelope.data : [];
		results.push(...data);
		if (limit !== undefined && results.length >= limit) return results.slice(0, limit);
		const next = envelope?.next_page_url;
		if (!next || data.length === 0) return results;
		const following = nextPageNumber(next, page);
		if (following <= page) return results;
		page = following;
	}
}
