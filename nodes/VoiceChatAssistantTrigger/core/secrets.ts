import { createHmac } from 'crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { randomString } from 'n8n-workflow';

import { credentialSettings } from '../../VoiceChatAssistant/transport/credentials';

/**
 * The secrets the webhook trigger registers, derived rather than random.
 *
 * n8n saves a webhook request's static data whole, last save wins, and a
 * publish may remove and add the trigger: a random secret kept in the static
 * data can be rolled back by a request that started before a publish and
 * saves after it, or replaced while deliveries to the old URL are still on
 * their way. A derived secret is the same for every activation of the same
 * node: HMAC-SHA256 keyed by the credential's API key (which the service
 * already holds; only the HMAC leaves n8n) over the workflow id, the node's
 * webhook id, and the event and assistant (webhook) or the tool's URL
 * (mid-call tool). A publish, a restart, a stale save and a failed activation leave it
 * as it is; a new API key in the credential gives new secrets (the stored
 * ones keep working until the next registration replaces them). To revoke a
 * webhook URL that leaked (it carries the secret, so proxy logs may hold it),
 * Options → URL Secret Version is raised: from version 2 on it is one more
 * part of the HMAC, the next activation or publish registers the new URLs,
 * and the old secret no longer passes.
 *
 * The secret is 32 letters and digits (about 190 bits), the shape the
 * triggers of this package recognise in each other's URLs (calls/ownership.ts).
 */

const LABEL = 'voice-chat-assistant-trigger secret v1';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 32;

type Context = Pick<IHookFunctions | IWebhookFunctions, 'getNode' | 'getWorkflow'>;

/** The secret for `parts`, keyed by the credential's Authorization header (Bearer and the API key). */
export function deriveSecret(authorization: string, parts: string[]): string {
	const key = createHmac('sha256', authorization).update(LABEL).digest();
	const digest = createHmac('sha256', key).update(JSON.stringify(parts)).digest('hex');
	let n = BigInt(`0x${digest}`);
	let secret = '';
	for (let i = 0; i < LENGTH; i++) {
		secret += ALPHABET[Number(n % 62n)];
		n /= 62n;
	}
	return secret;
}

/** The workflow and node a secret belongs to: the same for every activation of this node. */
export function nodeParts(ctx: Context): string[] {
	const node = ctx.getNode();
	return [String(ctx.getWorkflow().id ?? ''), node.webhookId ?? node.id ?? node.name];
}

/** The credential's Authorization header, or undefined when the credential has no API key or cannot be read. */
export async function authorizationOf(
	ctx: IHookFunctions | IWebhookFunctions,
): Promise<string | undefined> {
	try {
		return (await credentialSettings(ctx)).authorization;
	} catch {
		return undefined;
	}
}

/** Options → URL Secret Version: a whole number from 1 (the default, secrets as before the option). */
export function readSecretVersion(
	ctx: Pick<IHookFunctions | IWebhookFunctions, 'getNodeParameter'>,
) {
	const value = Number(ctx.getNodeParameter('options.urlSecretVersion', 1));
	return Number.isSafeInteger(value) && value > 1 ? value : 1;
}

/**
 * This node's URL Secret Version and the secrets of its assistants' URLs under `authorization`
 * (the credential's Authorization header; every secret is undefined without one).
 */
export function assistantSecrets(
	ctx: Context & Pick<IHookFunctions, 'getNodeParameter'>,
	authorization: string | undefined,
): { version: number; secretOf(event: string, assistantId: number): string | undefined } {
	const parts = nodeParts(ctx);
	const version = readSecretVersion(ctx);
	return {
		version,
		secretOf: (event, assistantId) =>
			authorization === undefined
				? undefined
				: assistantSecret(authorization, parts, version, event, assistantId),
	};
}

/** The secret of one assistant's webhook for `event`: the node's `parts` (nodeParts) and URL Secret Version. */
function assistantSecret(
	authorization: string,
	parts: string[],
	version: number,
	event: string,
	assistantId: number,
): string {
	return deriveSecret(authorization, [
		'webhook',
		...parts,
		event,
		String(assistantId),
		...(version > 1 ? [`v${version}`] : []),
	]);
}

/**
 * The secret header value of this node's mid-call tool that calls
 * `webhookUrl` (a test listener's tool has its own), or undefined without an
 * API key.
 */
export async function toolSecret(
	ctx: IHookFunctions | IWebhookFunctions,
	webhookUrl: string,
): Promise<string | undefined> {
	const authorization = await authorizationOf(ctx);
	if (!authorization) return undefined;
	return deriveSecret(authorization, ['tool', ...nodeParts(ctx), webhookUrl]);
}

const SECRET_LENGTH = 32;

/** A fresh secret: 32 random letters and digits (about 190 bits), when the credential has no API key to derive one from. */
export function newSecret(): string {
	return randomString(SECRET_LENGTH);
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(given: string, expected: string): boolean {
	let diff = given.length ^ expected.length;
	const length = Math.max(given.length, expected.length);
	for (let i = 0; i < length; i++) {
		diff |= (given.charCodeAt(i) || 0) ^ (expected.charCodeAt(i) || 0);
	}
	return diff === 0 && expected.length > 0;
}
