import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isObject } from './answers';
import { NOT_SENT_CODES } from './retryPolicy';

type Body = Record<string, unknown>;

/**
 * Whether a response is one of the service's error shapes even though its HTTP
 * status says success: `{status: false, error}`, `{error}` without data, a
 * validation `{message, errors}`, or a not-found `{message}` without data.
 */
export function isErrorResponse(body: unknown): body is Body {
	if (!isObject(body)) return false;
	const response: Body = body;
	if (response.status === false || response.success === false) return true;
	if ('data' in response) return false;
	if (typeof response.error === 'string' && response.error.trim()) return true;
	if (isObject(response.errors) && typeof response.message === 'string') return true;
	return typeof response.message === 'string' && /\bnot found\b/i.test(response.message);
}

/** The HTTP status an error response that came with a success status stands for. */
export function statusOfErrorResponse(status: number, body: Body): number {
	if (status >= 400) return status;
	if (isObject(body.errors)) return 422;
	const text = String(body.error ?? body.message ?? '');
	return /\bnot found\b/i.test(text) ? 404 : status;
}

/** `errors: {field: [messages]}` of a validation failure, as one line per field. */
function formatFieldErrors(errors: unknown): string | undefined {
	if (!isObject(errors)) return undefined;
	const lines = Object.entries(errors).map(([field, messages]) => {
		const list = Array.isArray(messages) ? messages.map(String) : [String(messages)];
		return `${field}: ${list.join(' ')}`;
	});
	return lines.length ? lines.join('\n') : undefined;
}

const STATUS_TEXT: Record<number, string> = {
	400: 'Bad request',
	401: 'The API key was not accepted',
	402: 'Payment required',
	403: 'Forbidden',
	404: 'Not found',
	405: 'Method not allowed',
	422: 'The given data was invalid',
	429: 'Too many requests',
	500: 'The service failed to process the request',
	502: 'Bad gateway',
	503: 'Service unavailable',
	504: 'Gateway timeout',
};

const HINTS: Record<number, string> = {
	401: 'Check the API key and the base URL of the credential.',
	402: 'Top up the account balance in the web app.',
	429: 'The rate limit of the account was exceeded and the retry budget is spent. Lower "Requests per Minute" in the credential.',
};

/**
 * The service's error text, whatever the shape of the body:
 * `{error}`, `{message}`, `{message, errors}`, `{status: false, error}`.
 */
function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const text = body.trim();
		return text && text.length <= 500 && !text.startsWith('<') ? text : undefined;
	}
	if (!isObject(body)) return undefined;
	for (const key of ['error', 'message']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim()) return value.trim();
		if (isObject(value) && typeof value.message === 'string') return value.message;
	}
	return undefined;
}

/**
 * Turns a response of the service into a NodeApiError that carries the
 * service's own text; a validation failure lists each field's messages.
 */
export function toApiError(
	node: INode,
	statusCode: number,
	body: unknown,
	itemIndex?: number,
): NodeApiError {
	const text = serviceMessage(body);
	const fields = isObject(body) ? formatFieldErrors(body.errors) : undefined;
	const base = text ?? STATUS_TEXT[statusCode] ?? `The service answered with HTTP ${statusCode}`;
	const message = fields ? `${base}: ${fields.replace(/\n/g, '; ')}` : base;
	const description = [fields, HINTS[statusCode]].filter(Boolean).join('\n') || undefined;
	const response: JsonObject = isObject(body)
		? (body as JsonObject)
		: { message: text ?? base, httpCode: String(statusCode) };
	return new NodeApiError(node, response, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/**
 * A redirect response. Requests to the service do not follow redirects: the
 * API key would go along to wherever the redirect points. The error names the
 * host (never the path or query, which may carry tokens) and the fix.
 */
export function toRedirectError(
	node: INode,
	statusCode: number,
	location: unknown,
	baseUrl: string,
	itemIndex?: number,
): NodeApiError {
	let target: URL | undefined;
	try {
		target = new URL(String(location ?? ''), baseUrl);
	} catch {
		target = undefined;
	}
	const where = target ? target.host : 'an address it did not name';
	const message = `The service answered with a redirect (HTTP ${statusCode}) to ${where}: the request was not sent there, so the API key stays with ${new URL(baseUrl).host}`;
	const description = target
		? `If the service has moved, set the Base URL of the credential to ${target.origin}; if you do not know ${target.host}, leave the Base URL as it is and ask the service.`
		: 'Check the Base URL of the credential.';
	const error = new NodeApiError(
		node,
		{ message, httpCode: String(statusCode) },
		{ message, description, httpCode: String(statusCode), itemIndex },
	);
	error.message = message;
	return error;
}

/** The warning for a request whose outcome is unknown and that is not sent again. */
export function sentMayHaveApplied(checkBeforeRetry?: string): string {
	return `The request was sent and may have been carried out; ${checkBeforeRetry ?? 'check the account'} before running it again.`;
}

/**
 * An error of the connection itself (no response from the service). Only a
 * request that never reached the service is called unreachable (and only then
 * is the base URL worth checking); a connection that broke after the request
 * was sent says that the service may have carried it out.
 */
export function toConnectionError(
	node: INode,
	code: string | undefined,
	attempts: number,
	details: { timeoutMs: number; retried: boolean; itemIndex?: number; checkBeforeRetry?: string },
): NodeApiError {
	const timedOut = code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ESOCKETTIMEDOUT';
	const notSent = code !== undefined && NOT_SENT_CODES.has(code);
	const message = timedOut
		? `The service did not answer within ${details.timeoutMs / 1000} s`
		: notSent
			? `The service could not be reached (${code})`
			: code
				? `The connection broke after the request was sent (${code})`
				: 'The request to the service failed without an answer';
	const hints: string[] = [];
	if (attempts > 1) hints.push(`Gave up after ${attempts} attempts.`);
	if (notSent) hints.push('Check the base URL of the credential and the network.');
	else if (!details.retried) {
		hints.push(sentMayHaveApplied(details.checkBeforeRetry));
	}
	const error = new NodeApiError(
		node,
		{ message, code: code ?? null },
		{ message, description: hints.join(' '), itemIndex: details.itemIndex },
	);
	// keep our wording: n8n would replace it with a generic text for known codes
	error.message = message;
	return error;
}
