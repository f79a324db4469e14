import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../VoiceChatAssistant/transport';
import type { PostCallSettings, WebhookTarget } from '../core/service';
import type { TriggerEvent } from '../core/events';

export type { PostCallSettings, WebhookTarget } from '../core/service';

/**
 * What the trigger registers at the service: the shapes of a registration
 * (how it is read from and kept in the static data: world.ts; the requests
 * that register it: core/service.ts).
 *
 * The service holds one webhook URL per assistant and signs nothing, so every
 * registration carries the assistant's id and a secret of its own (one per
 * assistant) as query parameters of the URL it registers:
 *
 *   <n8n webhook URL>?assistant_id=<id>&secret=<secret of that assistant>
 *
 * The secret is derived from the API key, the workflow, the node, the event
 * and the assistant (core/secrets.ts), so every activation registers the same URL
 * and a stale save of the static data cannot make it wrong. A delivery counts
 * when its secret is the derived one of the assistant it names, or the one
 * stored with the registration (random, by versions before derived secrets).
 * Registrations saved before secrets were per assistant (one `secret` for all,
 * beside the list) are read as that secret for each assistant, until the next
 * activation registers new ones.
 */

export interface RegisteredAssistant {
	id: number;
	/** The URL registered for this assistant, secret included. */
	url: string;
	/** The secret in that URL: a delivery naming this assistant must carry it. */
	secret: string;
	/**
	 * What to give the assistant back on removal, first choice first: the
	 * target it had before this trigger took it and, when that was another
	 * trigger of this package, the targets that one would have given back.
	 * Empty: switch the webhook off.
	 */
	giveBack: WebhookTarget[];
}

export interface Registration {
	event: TriggerEvent;
	/** n8n's webhook URL (test or production), without our query parameters. */
	webhookUrl: string;
	assistants: RegisteredAssistant[];
	/** Post-call webhook only. */
	settings?: PostCallSettings;
	/** Options → URL Secret Version when above 1 (core/secrets.ts): a new version registers new secrets. */
	secretVersion?: number;
}

/** What to do when an assistant already posts its calls somewhere else. */
export type ExistingWebhookPolicy = 'takeOverAndGiveBack' | 'fail' | 'takeOver';
export const EXISTING_WEBHOOK_POLICIES: ExistingWebhookPolicy[] = [
	'takeOverAndGiveBack',
	'fail',
	'takeOver',
];

/** What the node's parameters ask for. */
export interface Wanted {
	event: TriggerEvent;
	webhookUrl: string;
	assistantIds: number[];
	settings?: PostCallSettings;
	policy: ExistingWebhookPolicy;
	/** Options → URL Secret Version (1 unless raised). */
	secretVersion: number;
}

/** A chain of give-back targets never grows beyond this. */
export const MAX_GIVE_BACK = 8;

/** A give-back target as static data and probe answers carry it, or undefined when it is malformed. */
export function readTarget(value: unknown): WebhookTarget | undefined {
	if (!isObject(value)) return undefined;
	const url = value.url === null ? null : textOrNull(value.url);
	if (value.url !== null && (url === null || !isHttpUrl(url))) return undefined;
	const target: WebhookTarget = { url, active: value.active === true && url !== null };
	if (isObject(value.settings)) {
		target.settings = {
			send_webhook_only_on_completed: value.settings.send_webhook_only_on_completed !== false,
			include_recording_in_webhook: value.settings.include_recording_in_webhook !== false,
		};
	}
	return target;
}

export function readTargets(value: unknown): WebhookTarget[] {
	if (!Array.isArray(value)) return [];
	const list: WebhookTarget[] = [];
	for (const entry of value) {
		const target = readTarget(entry);
		if (target) list.push(target);
	}
	return list.slice(0, MAX_GIVE_BACK);
}

export function copyTarget(target: WebhookTarget): IDataObject {
	const copy: IDataObject = { url: target.url, active: target.active };
	if (target.settings) copy.settings = { ...target.settings };
	return copy;
}

/** Whether `url` is an absolute http(s) URL. */
export function isHttpUrl(url: string): boolean {
	try {
		const { protocol } = new URL(url);
		return protocol === 'https:' || protocol === 'http:';
	} catch {
		return false;
	}
}

function textOrNull(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}
