import type { INodeProperties } from 'n8n-workflow';

/** Operations where many items are typical and each item is one request. */
export const PARALLEL_OPERATIONS = { resource: ['lead'], operation: ['create'] };

export const parallelRequestsProperty: INodeProperties = {
	displayName: 'Requests in Flight',
	name: 'requestsInFlight',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20 },
	default: 1,
	description:
		'How many items are sent to the service at the same time. Keep 1 unless your plan allows more than the standard 100 requests per minute: the rate limit of the credential is respected either way, and the output stays in input order.',
	displayOptions: { show: PARALLEL_OPERATIONS },
};
