import type { IDataObject } from 'n8n-workflow';

import type { AttemptResult } from './attempt';
import { getClock } from './clock';

/**
 * When a request is sent again. Every request is sent again when it certainly
 * did not reach the service (no connection was made) or was refused with a 429.
 * Its outcome is unknown after a 500, 502 or 504, or when the connection broke
 * after it was sent: the service may have carried it out.
 * - `safe`: sending it twice is harmless (a read; an update that sets the same
 *   fields again; a delete, whose 404 on the resend means the first attempt
 *   deleted it); sent again after an unknown outcome and after a 503, after a
 *   500 at most `RETRY.serverErrorResends` times (a 500 that repeats is the
 *   service failing the request, not losing it).
 * - `naturalKey`: the body carries a key the service refuses twice (a lead's
 *   phone number in its campaign); sent again after an unknown outcome, a 500
 *   included, and looked up first where the caller can (transport/createOnce.ts).
 * - `notAfterUnknownOutcome`: sent again after a 503, never after an unknown
 *   outcome: the item fails and says what to check (`checkBeforeRetry`).
 * - `sendOnce`: it spends money or reaches a person; never sent again after it
 *   may have reached the service, only after a 429 or when no connection was
 *   made (not after a 503 either).
 */
export type RetryPolicy = 'safe' | 'naturalKey' | 'notAfterUnknownOutcome' | 'sendOnce';

export const RETRY = {
	/** Attempts of one request, the first included. */
	maxAttempts: 8,
	/** Total time one request may spend waiting between attempts. */
	maxTotalWaitMs: 5 * 60_000,
	/** Exponential backoff: base × 2^(attempt-1), capped, with full jitter on the upper half. */
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	/** How often a request is sent again after 500s, where its policy resends them. */
	serverErrorResends: 2,
};

/** What an attempt came to, as far as sending it again goes. */
export type OutcomeClass =
	/** No connection was made: the service never saw the request. */
	| 'notSent'
	/** 429: the account's budget is spent. */
	| 'refused'
	/** 503: the service did not take the request. */
	| 'unavailable'
	/** 502, 504, or the connection broke after sending: the outcome is unknown. */
	| 'unknown'
	/** 500: the outcome is unknown, though most often nothing was stored. */
	| 'serverError'
	/** A failure without a response whose cause is not known: the outcome is unknown. */
	| 'failed'
	/** Any other response: success or an error to report. */
	| 'final';

/**
 * What the request does next:
 * - `retry`: sent again after a backoff (the item's slot given back meanwhile);
 * - `resend`: the outcome is unknown, sent again after a backoff;
 * - `lookUpAndResend`: the outcome is unknown; after the backoff the caller's
 *   look-up runs first, and what it finds is the result;
 * - `wait`: a 429: the whole budget pauses, the item keeps its slot;
 * - `giveUp`: the response (or failure) is the result.
 */
export type Decision = 'retry' | 'resend' | 'lookUpAndResend' | 'wait' | 'giveUp';

export const DECISIONS: Record<OutcomeClass, Record<RetryPolicy, Decision>> = {
	notSent: {
		safe: 'retry',
		naturalKey: 'retry',
		notAfterUnknownOutcome: 'retry',
		sendOnce: 'retry',
	},
	refused: { safe: 'wait', naturalKey: 'wait', notAfterUnknownOutcome: 'wait', sendOnce: 'wait' },
	unavailable: {
		safe: 'retry',
		naturalKey: 'retry',
		notAfterUnknownOutcome: 'retry',
		sendOnce: 'giveUp',
	},
	unknown: {
		safe: 'resend',
		naturalKey: 'lookUpAndResend',
		notAfterUnknownOutcome: 'giveUp',
		sendOnce: 'giveUp',
	},
	serverError: {
		safe: 'resend',
		naturalKey: 'resend',
		notAfterUnknownOutcome: 'giveUp',
		sendOnce: 'giveUp',
	},
	failed: {
		safe: 'giveUp',
		naturalKey: 'giveUp',
		notAfterUnknownOutcome: 'giveUp',
		sendOnce: 'giveUp',
	},
	final: {
		safe: 'giveUp',
		naturalKey: 'giveUp',
		notAfterUnknownOutcome: 'giveUp',
		sendOnce: 'giveUp',
	},
};

/** Whether the policy sends a request again after an unknown outcome. */
export const resendsUnknownOutcome = (policy: RetryPolicy) =>
	DECISIONS.unknown[policy] !== 'giveUp';

/** Codes of failures where the request never reached the service. */
export const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);
/** Codes of failures where the request may have been applied. */
const UNKNOWN_OUTCOME_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'ERR_CANCELED',
]);

export function classify(result: AttemptResult): OutcomeClass {
	if (!result.response) {
		const code = result.code ?? '';
		if (NOT_SENT_CODES.has(code)) return 'notSent';
		return UNKNOWN_OUTCOME_CODES.has(code) ? 'unknown' : 'failed';
	}
	const status = result.response.status;
	if (status === 429) return 'refused';
	if (status === 503) return 'unavailable';
	if (status === 502 || status === 504) return 'unknown';
	return status === 500 ? 'serverError' : 'final';
}

/** Whether the service may have carried out the attempt. */
export const outcomeUnknown = (outcome: OutcomeClass) =>
	outcome === 'unknown' || outcome === 'serverError' || outcome === 'failed';

function backoffDelay(attempt: number): number {
	const exp = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(exp / 2 + (getClock().random() * exp) / 2);
}

/** Seconds to wait, from `retry_after` in the body or the `Retry-After` header. */
function retryAfterMs(body: unknown, headers: IDataObject | undefined): number | undefined {
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

/** The wait before attempt `attempt + 1`: what a 429 or 503 asks for, else the backoff. */
export function delayAfter(result: AttemptResult, outcome: OutcomeClass, attempt: number): number {
	const asked =
		result.response && (outcome === 'refused' || outcome === 'unavailable')
			? retryAfterMs(result.response.body, result.response.headers)
			: undefined;
	return asked ?? backoffDelay(attempt);
}
