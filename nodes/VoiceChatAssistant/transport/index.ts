/** The transport: everything that speaks HTTP to the service, and the shapes of its answers. */
export { asList, isObject, messageOf, recordWithMessage, unwrap } from './answers';
export { InFlightSlots, mapInOrder, useSlots } from './concurrency';
export { IN_FLIGHT, inFlightFor, inFlightForBudget } from './inFlight';
export { CREDENTIAL_TYPE, normalizeBaseUrl } from './credentials';
export type { RequestContext } from './credentials';
export { MAX_PER_PAGE, PAGES_IN_FLIGHT, apiRequestAllItems } from './pagination';
export type { PageEnvelope } from './pagination';
export {
	ENDPOINT_LIMITS,
	RETRY,
	apiRequest,
	limiterOfRun,
	retryAfterMs,
	sentMayHaveApplied,
} from './request';
export type { ApiRequestOptions, EndpointLimit, RequestOutcome, RetryPolicy } from './request';
