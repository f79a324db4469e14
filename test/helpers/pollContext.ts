/**
 * A stand-in for n8n's IPollFunctions in unit tests, built on the execute
 * context of context.ts (real HTTP through n8n's request conversion, so
 * `nock` sees what n8n would send): `trigger` mode unless `manual`,
 * parameters read as a poll reads them (no item index), the static data
 * kept across polls, and the log's warnings collected in `warnings`.
 */
import type { IDataObject, IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';

import { createContext } from './context';

export interface PollerOptions {
	/** "Fetch Test Event" (`manual` mode) instead of a poll of an active workflow. */
	manual?: boolean;
	/** Where the log's warnings go. */
	warnings?: string[];
	/** Answers every HTTP request instead of the network (a service faked in memory). */
	answer?: (request: IHttpRequestOptions) => unknown;
}

export function poller(
	parameters: IDataObject,
	staticData: IDataObject,
	options: PollerOptions = {},
): IPollFunctions {
	const { context } = createContext({ parameters, staticData });
	const base = context as unknown as IDataObject & {
		getNodeParameter: (n: string, i: number, f?: unknown) => unknown;
		helpers: IDataObject;
	};
	const warnings = options.warnings ?? [];
	const { answer } = options;
	return {
		...base,
		...(answer
			? {
					helpers: {
						...base.helpers,
						httpRequest: async (request: IHttpRequestOptions) => ({
							statusCode: 200,
							headers: {},
							body: answer(request),
						}),
					},
				}
			: {}),
		getMode: () => (options.manual ? 'manual' : 'trigger'),
		getNodeParameter: (name: string, fallback?: unknown) =>
			base.getNodeParameter(name, 0, fallback),
		logger: {
			debug() {},
			info() {},
			error() {},
			warn: (message: string) => warnings.push(message),
		},
	} as unknown as IPollFunctions;
}
