import type {
	FunctionsBase,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './credentials';
import type { CredentialSettings, RequestContext } from './credentials';

/** One attempt of a request: the options n8n's HTTP helper gets, sending it, and what came back. */

export const DEFAULT_TIMEOUT_MS = 60_000;

/** What one attempt came to: the service's response, or a failure without one (its error code). */
export type AttemptResult =
	| { response: { status: number; body: unknown; headers: IDataObject } }
	| { response?: undefined; code: string | undefined };

export interface AttemptInput {
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | FormData;
	timeout?: number;
}

function isFormData(body: unknown): body is FormData {
	return typeof FormData !== 'undefined' && body instanceof FormData;
}

/** The options of n8n's HTTP helper for a request (the same for every attempt). */
export function httpOptions(
	settings: CredentialSettings,
	method: IHttpRequestMethods,
	path: string,
	input: AttemptInput,
): IHttpRequestOptions {
	const multipart = isFormData(input.body);
	const request: IHttpRequestOptions = {
		method,
		baseURL: settings.baseUrl,
		url: path,
		headers: multipart
			? { Accept: 'application/json' }
			: { Accept: 'application/json', 'Content-Type': 'application/json' },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: input.timeout ?? DEFAULT_TIMEOUT_MS,
		// a redirect is not followed: n8n's HTTP client would carry the Authorization header to
		// wherever it points (and keep a copy of every body byte to replay it)
		disableFollowRedirect: true,
	};
	if (input.qs && Object.keys(input.qs).length) request.qs = input.qs;
	if (input.body !== undefined) request.body = input.body as IHttpRequestOptions['body'];
	if (!multipart) request.json = true;
	return request;
}

/** The code of a failure without a response (ECONNRESET, ETIMEDOUT, ...), from the error or its causes. */
export function errorCode(error: unknown): string | undefined {
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

/**
 * Sends one attempt. With the credential read for this node run, the request
 * carries its Authorization header (the credential's `authenticate`: Bearer
 * and the API key) and goes through n8n's plain HTTP helper: n8n's
 * authenticated helper reads the credential from the database, decrypts it and
 * evaluates the header's expression again for every request, about 0.8 ms of
 * CPU per request (docs/performance.md). The error of a failure is not kept: it
 * carries the request with its headers.
 */
export async function attempt(
	ctx: RequestContext,
	request: IHttpRequestOptions,
	authorization: string | undefined,
): Promise<AttemptResult> {
	try {
		const response = (
			authorization && typeof ctx.helpers.httpRequest === 'function'
				? await ctx.helpers.httpRequest({
						...request,
						headers: { ...request.headers, Authorization: authorization },
					})
				: await ctx.helpers.httpRequestWithAuthentication.call(
						ctx as unknown as FunctionsBase & IExecuteFunctions,
						CREDENTIAL_TYPE,
						request,
					)
		) as IN8nHttpFullResponse;
		return {
			response: {
				status: response.statusCode,
				body: parseBody(response.body),
				headers: (response.headers ?? {}) as IDataObject,
			},
		};
	} catch (error) {
		return { code: errorCode(error) };
	}
}
