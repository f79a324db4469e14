/** The transport: everything that speaks HTTP to the service, and the shapes of its answers. */
export { asList, isObject, messageOf, recordWithMessage, unwrap } from './answers';
export { InFlightSlots, mapInOrder } from './concurrency';
export { IN_FLIGHT, inFlightFor, inFlightForBudget } from './inFlight';
export { CREDENTIAL_TYPE, normalizeBaseUrl } from './credentials';
export type { RequestContext } from './credentials';
export { MAX_PER_PAGE, PAGES_IN_FLIGHT, apiRequestAllItems } from './pagination';
export type { PageEnvelope } from './pagination';
export { ENDPOINT_LIMITS } from './rateLimiter';
export type { EndpointLimit } from './rateLimiter';
export { apiRequest, limiterOfRun } from './request';
export type { ApiRequestOptions } from './request';
export { RETRY } from './retryPolicy';
export type { RetryPolicy } from './retryPolicy';
