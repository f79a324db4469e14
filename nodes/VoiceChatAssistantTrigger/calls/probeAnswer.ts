import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { copyTarget, readTargets } from './registration';
import type { RegisteredAssistant, WebhookTarget } from './registration';
import { authorizationOf } from '../core/secrets';

/**
 * What a live trigger answers another trigger's probe (ownership.ts), and
 * how the asking trigger reads it.
 *
 * The answer says "live" and carries the targets the trigger would give
 * back, sealed: AES-256-GCM under a key derived from the credential's API
 * key, bound to the assistant. The targets are URLs that may hold tokens
 * (a CRM's webhook, another trigger's secret); whoever knows this trigger's
 * URL with its secret (the service, anyone who reads the assistant, a log of
 * the URL) can send a probe, and gets "live" and a sealed text, never a URL.
 * Another trigger of this package on this n8n that uses the same API key
 * opens it; with another key it cannot, and keeps only the trigger it asked
 * (ownership.ts says what that costs).
 */

/** What a live trigger answers: `{[PROBE_ANSWER_KEY]: 'live', [SEALED_KEY]: '<sealed targets>'}`. */
export const PROBE_ANSWER_KEY = 'voiceChatAssistantTrigger';
export const SEALED_KEY = 'sealedGiveBack';

const LABEL = 'voice-chat-assistant-trigger give-back v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyOf(authorization: string): Buffer {
	return createHmac('sha256', authorization).update(LABEL).digest();
}

function aad(assistantId: number): Buffer {
	return Buffer.from(`${LABEL}|assistant ${assistantId}`);
}

/** The targets sealed under the credential's authorization: `<iv>.<ciphertext>.<tag>`, base64url. */
export function sealTargets(
	targets: WebhookTarget[],
	authorization: string,
	assistantId: number,
): string {
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', keyOf(authorization), iv);
	cipher.setAAD(aad(assistantId));
	const text = JSON.stringify(targets.map(copyTarget));
	const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
	return [iv, data, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** The sealed targets, or undefined when they cannot be opened (another key, another assistant, altered). */
export function openTargets(
	sealed: unknown,
	authorization: string,
	assistantId: number,
): WebhookTarget[] | undefined {
	if (typeof sealed !== 'string') return undefined;
	const parts = sealed.split('.');
	if (parts.length !== 3) return undefined;
	const [iv, data, tag] = parts.map((part) => Buffer.from(part, 'base64url'));
	if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', keyOf(authorization), iv);
		decipher.setAAD(aad(assistantId));
		decipher.setAuthTag(tag);
		const text = Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
		return readTargets(JSON.parse(text));
	} catch {
		return undefined;
	}
}

/** The answer to an authenticated probe: "live", and the give-back list sealed (left out without a readable credential). */
export async function probeAnswer(
	ctx: IWebhookFunctions,
	entry: RegisteredAssistant,
): Promise<IDataObject> {
	const answer: IDataObject = { [PROBE_ANSWER_KEY]: 'live' };
	const authorization = await authorizationOf(ctx);
	if (authorization) answer[SEALED_KEY] = sealTargets(entry.giveBack, authorization, entry.id);
	return answer;
}
