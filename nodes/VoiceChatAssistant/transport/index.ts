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

/** Settings per node run: the credential is read (and decrypted) once, not once per request. */
const settingsOfRun = new WeakMap<object, Promise<CredentialSettings>>();

async function credentialSettings(ctx: RequestContext): Promise<CredentialSettings> {
	let settings = settingsOfRun.get(ctx);
	if (!settings) {
		settings = readCredentialSettings(ctx);
		settingsOfRun.set(ctx, settings);
		// a failed read is not kept: the next item reports its own error
		settings.catch(() => settingsOfRun.delete(ctx));
	}
	return await settings;
}

async function readCredentialSettings(ctx: RequestContext): Promise<CredentialSettings> {
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

/** Pages of one Return All read at the same time (the credential's rate limit still applies). */
export const PAGES_IN_FLIGHT = 3;

/** Runs `task` for every value, at most `concurrency` at a time; results in the order of `values`. */
async function mapInOrder<V, R>(values: V[], concurrency: number, task: (value: V) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(values.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (next < values.length && !failed) {
			const index = next++;
			const running = task(values[index]);
			// after a failure no further value is started; the failure itself reaches Promise.all below
			running.then(undefined, () => (failed = true));
			results[index] = await running;
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, worker));
	return results;
}

/**
 * Reads a paginated list. With `limit` undefined it reads every page
 * (per_page 100) until `next_page_url` is null: once the first page has told
 * how many pages there are (`last_page`), the others are read a few at a time
 * and kept in page order; pages that appear while reading are read after
 * them, one by one. With a limit it reads page after page and stops as soon as
 * it has enough. Every page is requested on the credential's base URL (only
 * the page number is taken from `next_page_url`), so the API key is never
 * sent to a host named by a response.
 */
export async function apiRequestAllItems<T = IDataObject>(
	this: RequestContext,
	path: string,
	qs: IDataObject,
	limit: number | undefined,
	itemIndex?: number,
): Promise<T[]> {
	const perPage = limit === undefined ? MAX_PER_PAGE : Math.max(1, Math.min(MAX_PER_PAGE, limit));
	const readPage = async (page: number) =>
		await apiRequest.call<RequestContext, [IHttpRequestMethods, string, ApiRequestOptions], Promise<PageEnvelope<T>>>(
			this,
			'GET',
			path,
			{ qs: { ...qs, per_page: perPage, page }, itemIndex },
		);
	const dataOf = (envelope: PageEnvelope<T> | undefined) => (Array.isArray(envelope?.data) ? envelope.data : []);

	const results: T[] = [];
	let page = 1;
	let envelope = await readPage(page);
	const lastPage = Number(envelope?.last_page);
	if (limit === undefined && envelope?.next_page_url && dataOf(envelope).length && Number.isInteger(lastPage) && lastPage > 1) {
		results.push(...dataOf(envelope));
		const pages = Array.from({ length: lastPage - 1 }, (_, i) => i + 2);
		const envelopes = await mapInOrder(pages, PAGES_IN_FLIGHT, readPage);
		for (const each of envelopes) results.push(...dataOf(each));
		page = lastPage;
		envelope = envelopes[envelopes.length - 1];
		if (!envelope?.next_page_url || dataOf(envelope).length === 0) return results;
		page = advance(envelope.next_page_url, page);
		if (page === 0) return results;
		envelope = await readPage(page);
	}
	for (;;) {
		const data = dataOf(envelope);
		results.push(...data);
		if (limit !== undefined && results.length >= limit) return results.slice(0, limit);
		const next = envelope?.next_page_url;
		if (!next || data.length === 0) return results;
		page = advance(next, page);
		if (page === 0) return results;
		envelope = await readPage(page);
	}
}

/** The page after `current`, from a `next_page_url`; 0 when it does not move forward. */
function advance(nextPageUrl: string, current: number): number {
	const following = nextPageNumber(nextPageUrl, current);
	return following > current ? following : 0;
}
