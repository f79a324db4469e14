/** What the transport test files share: a node run's context, a network error, the error a request fails with, and the check that it never holds the key. */
import type { NodeApiError } from 'n8n-workflow';

import { TEST_API_KEY, createContext } from '../../helpers/context';

export function netError(code: string, message: string) {
	return Object.assign(new Error(message), { code });
}

export function ctx(credentials = {}) {
	return createContext({ parameters: {}, credentials }).context;
}

export async function failure(promise: Promise<unknown>): Promise<NodeApiError> {
	try {
		await promise;
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('expected the request to fail');
}

export function expectNoKey(error: unknown) {
	const seen = new WeakSet();
	const text = JSON.stringify(error, (_key, value) => {
		if (value && typeof value === 'object') {
			if (seen.has(value)) return undefined;
			seen.add(value);
		}
		return value;
	});
	expect(
		`${text} ${(error as Error).message} ${(error as NodeApiError).description ?? ''} ${(error as Error).stack}`,
	).not.toContain(TEST_API_KEY);
}
