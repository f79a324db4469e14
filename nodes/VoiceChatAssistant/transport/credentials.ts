import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { keyMayGoTo } from './baseUrlRule';

/** The credential: its type name, its base URL and its rate-limit settings, read once per node run. */

export const CREDENTIAL_TYPE = 'voiceChatAssistantApi';

export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

/** Removes a trailing slash and a trailing `/api` from the credential's base URL. */
export function normalizeBaseUrl(value: unknown): string {
	let url = String(value ?? '').trim();
	if (!url) url = 'https://app.famulor.de';
	url = url.replace(/\/+$/, '');
	url = url.replace(/\/api$/i, '');
	return url.replace(/\/+$/, '');
}

/** Whether a parsed host name is this machine: localhost, 127.0.0.0/8 or ::1 (not names under .localhost). */
function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why the credential's Base URL (as entered) is refused, or undefined when it
 * is fine: the API key goes over HTTPS only; plain HTTP is accepted for this
 * machine alone (the key does not cross a network there). The text must pass
 * the credential's own rule (baseUrlRule.ts, the same rule as its
 * `authenticate`) and the parsed URL must agree with it.
 */
export function baseUrlProblem(value: unknown): string | undefined {
	const baseUrl = normalizeBaseUrl(value);
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return `The Base URL of the credential is not a URL: "${baseUrl}"`;
	}
	const parsedSafe =
		url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
	if (parsedSafe && keyMayGoTo(value)) return undefined;
	return `The Base URL of the credential must start with https:// (got ${url.protocol}//${url.host}): the API key would otherwise cross the network unencrypted. Plain http:// is accepted only for localhost, 127.x.x.x and [::1], written as http://localhost, http://127.0.0.1 or http://[::1] with an optional port.`;
}

export interface CredentialSettings {
	baseUrl: string;
	limiterKey: string;
	perMinute: number;
	burst: number;
	/**
	 * The Authorization header of the credential (its `authenticate`: Bearer and
	 * the API key), built once per node run; not enumerable, so it is never
	 * logged with the settings.
	 */
	readonly authorization?: string;
}

/** Settings per node run (or poll): the credential is read (and decrypted) once, not once per request. */
const settingsOfRun = new WeakMap<object, Promise<CredentialSettings>>();

export async function credentialSettings(ctx: RequestContext): Promise<CredentialSettings> {
	let settings = settingsOfRun.get(ctx);
	if (!settings) {
		settings = readCredentialSettings(ctx);
		settingsOfRun.set(ctx, settings);
		// a failed read is not kept: the next item reports its own error
		settings.catch(() => settingsOfRun.delete(ctx));
	}
	return await settings;
}

/**
 * Forgets the settings read in this context. n8n reuses one context for every
 * poll of an activation: the polling trigger calls this after each poll, so a
 * key or Base URL changed in the credential is used from the next poll on and
 * the key is not kept in memory between polls.
 */
export function forgetCredentialSettings(ctx: RequestContext) {
	settingsOfRun.delete(ctx);
}

async function readCredentialSettings(ctx: RequestContext): Promise<CredentialSettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const problem = baseUrlProblem(credentials.baseUrl);
	if (problem) throw new NodeOperationError(ctx.getNode(), problem);
	const credentialId = ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id;
	const number = (value: unknown, fallback: number) => {
		const n = Number(value);
		return Number.isFinite(n) && n >= 1 ? n : fallback;
	};
	const settings: CredentialSettings = {
		baseUrl,
		// the credential's id, never its key, identifies the shared budget
		limiterKey: `${credentialId ?? 'unsaved'}@${baseUrl}`,
		perMinute: number(credentials.requestsPerMinute, 100),
		burst: number(credentials.burst, 20),
	};
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	if (apiKey) {
		Object.defineProperty(settings, 'authorization', {
			value: `Bearer ${apiKey}`,
			enumerable: false,
		});
	}
	return settings;
}
