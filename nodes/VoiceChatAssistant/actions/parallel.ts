import type { INodeProperties } from 'n8n-workflow';

/** "Requests in Flight" of the operations that declare `parallel` (placed by each of them). */
export const parallelRequestsProperty: INodeProperties = {
	displayName: 'Requests in Flight',
	name: 'requestsInFlight',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20 },
	default: 1,
	description:
		'How many items are sent to the service at the same time. Keep 1 unless your plan allows more than the standard 100 requests per minute: the rate limit of the credential is respected either way, and the output stays in input order.',
};

/** The number of items in flight the node's settings ask for: 1 to 20. */
export function requestsInFlight(value: unknown): number {
	return Math.max(1, Math.min(20, Math.floor(Number(value)) || 1));
}
