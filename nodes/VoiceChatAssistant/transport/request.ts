import type { IDataObject, IHttpRequestMethods, NodeApiError } from 'n8n-workflow';

import { attempt, DEFAULT_TIMEOUT_MS, httpOptions } from './attempt';
import type { AttemptResult } from './attempt';
import { getClock } from './clock';
import type { InFlightSlots } from './concurrency';
import { credentialSettings } from './credentials';
import type { CredentialSettings, RequestContext } from './credentials';
import {
	isErrorResponse,
	sentMayHaveApplied,
	statusOfErrorResponse,
	toApiError,
	toConnectionError,
	toRedirectError,
} from './errors';
import { getLimiter } from './rateLimiter';
import type { EndpointLimit, SlidingWindowLimiter } from './rateLimiter';
import {
	classify,
	DECISIONS,
	delayAfter,
	outcomeUnknown,
	RETRY,
	resendsUnknownOutcome,
} from './retryPolicy';
import type { OutcomeClass, RetryPolicy } from './retryPolicy';

/** One request to the service: authentication, rate limit, the retry decision and error mapping. */

export interface ApiRequestOptions {
	qs?: IDataObject;
	/** A JSON body, or a multipart body built with the platform's FormData. */
	body?: IDataObject | IDataObject[] | FormData;
	/** Item the request is made for; errors name it. */
	itemIndex?: number;
	/** Per-attempt timeout in milliseconds (default 60 s). */
	timeout?: number;
	/** When the request is sent again (see RetryPolicy); default: `safe` for GET, PUT and DELETE, `notAfterUnknownOutcome` for POST and PATCH. */
	retry?: RetryPolicy;
	/** What to check before running a request again whose outcome is unknown (requests not sent again then). */
	checkBeforeRetry?: string;
	/** A limit of the endpoint on top of the credential's budget (e.g. AI replies: 5 per minute), kept per credential. */
	endpointLimit?: EndpointLimit;
	/** The in-flight slots of the node run: the item's slot is given back while its request waits for a backoff. */
	slots?: InFlightSlots;
	/**
	 * `naturalKey` only: after an unknown outcome (a 502 or 504, a broken
	 * connection) and its backoff, the object is looked up before the request is
	 * sent again; what is found is the result (`Sent.found`). Nothing found, or
	 * a failed look-up: sent again.
	 */
	lookUpBeforeResend?: () => Promise<IDataObject | undefined>;
	/** False: a 500 is the result, also where the policy resends 500s (the endpoint documents it as nothing saved). */
	resendServerErrors?: boolean;
}

/** A DELETE's result when its resend after a lost answer is answered 404. */
export const GONE_AFTER_LOST_ANSWER =
	'Deleted: the first request got no answer, and sent again it found nothing to delete (the first one deleted it)';

/** What a request came to: its response body or its error, and whether an attempt's outcome was unknown. */
export type Sent<T = unknown> = {
	/** An attempt (an earlier one or the last) may have been carried out without its response arriving. */
	unknownOutcome: boolean;
} & ({ body: T; found?: boolean; error?: undefined } | { error: NodeApiError; body?: undefined });

/** The limiter of the credential of this node run, or undefined when the credential cannot be read. */
export async function limiterOfRun(ctx: RequestContext): Promise<SlidingWindowLimiter | undefined> {
	return await credentialSettings(ctx).then(limiterOf, () => undefined);
}

const limiterOf = (settings: CredentialSettings) =>
	getLimiter(settings.limiterKey, { perMinute: settings.perMinute, burst: settings.burst });

/** The response of the last attempt as the result: its body, or the error it maps to. */
function result<T>(
	ctx: RequestContext,
	last: AttemptResult,
	outcome: OutcomeClass,
	tried: { attempts: number; policy: RetryPolicy; options: ApiRequestOptions; baseUrl: string },
): { body: T } | { error: NodeApiError } {
	const { options, policy } = tried;
	const node = ctx.getNode();
	if (!last.response) {
		const error = toConnectionError(node, last.code, tried.attempts, {
			timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS,
			retried: resendsUnknownOutcome(policy),
			itemIndex: options.itemIndex,
			checkBeforeRetry: options.checkBeforeRetry,
		});
		return { error };
	}
	const { status, body, headers } = last.response;
	if (status >= 300 && status < 400) {
		return {
			error: toRedirectError(node, status, headers.location, tried.baseUrl, options.itemIndex),
		};
	}
	if (status >= 400) {
		const error = toApiError(node, status, body, options.itemIndex);
		// a response that may hide a carried-out request not sent again: say what to check
		if (outcomeUnknown(outcome) && !resendsUnknownOutcome(policy)) {
			error.description = [error.description, sentMayHaveApplied(options.checkBeforeRetry)]
				.filter(Boolean)
				.join(' ');
		}
		return { error };
	}
	// the service's error shapes count as errors also when they come with HTTP 200
	if (isErrorResponse(body)) {
		return {
			error: toApiError(node, statusOfErrorResponse(status, body), body, options.itemIndex),
		};
	}
	return { body: body as T };
}

/**
 * Sends a request until its policy says it is done (DECISIONS): authenticated
 * with the credential, paced by the credential's budget (and the endpoint's
 * limit), every failure mapped to a NodeApiError with the service's own text.
 */
export async function sendRequest<T = unknown>(
	ctx: RequestContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<Sent<T>> {
	const settings = await credentialSettings(ctx);
	const limiter = limiterOf(settings);
	const limit = options.endpointLimit;
	const endpointLimiter = limit && getLimiter(`${settings.limiterKey}#${limit.name}`, limit);
	const policy =
		options.retry ?? (method === 'POST' || method === 'PATCH' ? 'notAfterUnknownOutcome' : 'safe');
	const request = httpOptions(settings, method, path, options);
	const clock = getClock();
	const { slots, itemIndex } = options;
	const sleepWithoutSlot = async (ms: number) =>
		slots && itemIndex !== undefined
			? await slots.giveBackWhile(itemIndex, async () => await clock.sleep(ms))
			: await clock.sleep(ms);
	let unknownOutcome = false;
	let serverErrors = 0;
	let waited = 0;
	for (let attempts = 1; ; attempts++) {
		// the endpoint's own window first: waiting there must not hold a slot of the shared budget
		const endpointGrant = await endpointLimiter?.acquire();
		const grant = await limiter.acquire();
		const sentAt = clock.now();
		const last = await attempt(ctx, request, settings.authorization);
		const outcome = classify(last);
		if (last.response) limiter.observeLatency(clock.now() - sentAt);
		// a refused request, or one that never reached the service, does not count against its windows
		for (const taken of [grant, endpointGrant]) {
			if (outcome === 'notSent' || outcome === 'refused') taken?.refund();
			else taken?.settle();
		}
		unknownOutcome ||= outcomeUnknown(outcome);
		if (outcome === 'serverError') serverErrors++;
		const decision =
			outcome === 'serverError' &&
			(options.resendServerErrors === false || serverErrors > RETRY.serverErrorResends)
				? 'giveUp'
				: DECISIONS[outcome][policy];
		const delay = decision === 'giveUp' ? 0 : delayAfter(last, outcome, attempts);
		if (
			decision === 'giveUp' ||
			attempts >= RETRY.maxAttempts ||
			waited + delay > RETRY.maxTotalWaitMs
		) {
			// a delete sent again after an unknown outcome finds nothing: the earlier attempt deleted it
			if (method === 'DELETE' && unknownOutcome && attempts > 1 && last.response?.status === 404)
				return { unknownOutcome, body: { message: GONE_AFTER_LOST_ANSWER } as T };
			const tried = { attempts, policy, options, baseUrl: settings.baseUrl };
			return { unknownOutcome, ...result<T>(ctx, last, outcome, tried) };
		}
		waited += delay;
		if (decision === 'wait') {
			// the account's budget is spent (maybe by other processes): pause, and take a smaller share;
			// the item keeps its slot (and its turn)
			if (endpointLimiter && endpointGrant)
				endpointLimiter.refused(endpointGrant, clock.now() + delay);
			else limiter.refused(grant, clock.now() + delay);
			await clock.sleep(delay);
			continue;
		}
		// any other backoff gives the item's slot back: other items are sent meanwhile
		await sleepWithoutSlot(delay);
		if (decision === 'lookUpAndResend' && options.lookUpBeforeResend) {
			const found = await options.lookUpBeforeResend().catch(() => undefined);
			if (found) return { unknownOutcome, body: found as T, found: true };
		}
	}
}

/**
 * The one function that speaks HTTP to the service (sendRequest): the
 * response body, or the request's error thrown.
 */
export async function apiRequest<T = unknown>(
	this: RequestContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	const sent = await sendRequest<T>(this, method, path, options);
	if (sent.error) throw sent.error;
	return sent.body;
}
