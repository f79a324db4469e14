import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

/** The credential: its type name, its base URL and its rate-limit settings, read once per node run. */

export const CREDENTIAL_TYPE = 'voiceChatAssistantApi';

export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IPollFunctions
	| IWebhookFunctions;

/** Removes a trailing slash and a trailing `/api` from the credential's base URL. */
export function normalizeBaseUrl(value: unknown): string {
	let url = String(value ?? '').trim();
	if (!url) url = 'https://app.famulor.de';
	url = url.replace(/\/+$/, '');
	url = url.replace(/\/api$/i, '');
	return url.replace(/\/+$/, '');
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

/** Settings per node run: the credential is read (and decrypted) once, not once per request. */
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

async function readCredentialSettings(ctx: RequestContext): Promise<CredentialSettings> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
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
