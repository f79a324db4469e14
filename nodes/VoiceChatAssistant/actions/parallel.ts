import type { INodeProperties } from 'n8n-workflow';

import { IN_FLIGHT } from '../transport/inFlight';

/** The most "Requests in Flight" the setting accepts (the same as the cap without a setting). */
const MAX_IN_FLIGHT = IN_FLIGHT.cap;

/** "Requests in Flight" of the operations that declare `parallel` (placed by each of them). */
export const parallelRequestsProperty: INodeProperties = {
	displayName: 'Requests in Flight',
	name: 'requestsInFlight',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_IN_FLIGHT },
	default: 0,
	description: `How many items are sent to the service at the same time. 0 follows the credential's budget: as many as its Requests per Minute and the service's answer time need, up to ${MAX_IN_FLIGHT} (at the standard 100 per minute that is 2 to 4). A number from 1 to ${MAX_IN_FLIGHT} sets it. The rate limit of the credential is respected either way, and the output stays in input order.`,
};

/** The items in flight the node's settings ask for: 1 to the cap, or 0 to follow the budget. */
export function requestsInFlight(value: unknown): number {
	const n = Math.floor(Number(value));
	if (!Number.isFinite(n) || n <= 0) return 0;
	return Math.min(MAX_IN_FLIGHT, n);
}
