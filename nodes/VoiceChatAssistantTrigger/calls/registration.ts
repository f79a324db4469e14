import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../VoiceChatAssistant/transport';
import { CONVERSATION_ENDED, INBOUND, POST_CALL, readAssistantIds } from '../core/events';
import type { TriggerEvent } from '../core/events';

/**
 * What the trigger registers at the service, and how it remembers it (the
 * requests that register it: serviceWebhooks.ts).
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
 *
 * The registration is kept in the node's static data, which n8n saves with the
 * workflow: `checkExists` compares it with the node's current settings (so a
 * restart does not register twice) and `delete` undoes exactly what it lists.
 */

const EVENTS: TriggerEvent[] = [INBOUND, POST_CALL, CONVERSATION_ENDED];

/** Settings sent with the post-call webhook (assistant configuration fields). */
export interface PostCallSettings {
	send_webhook_only_on_completed: boolean;
	include_recording_in_webhook: boolean;
}

/**
 * Where an assistant's webhook pointed (or may point again): a URL with its
 * switch and, for the post-call webhook, its two settings. `url: null` is
 * "no URL"; `active: false` is "switched off".
 */
export interface WebhookTarget {
	url: string | null;
	active: boolean;
	settings?: PostCallSettings;
}

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

/** Key of the registration in the node's static data. */
const KEY = 'registration';

/** A chain of give-back targets never grows beyond this. */
export const MAX_GIVE_BACK = 8;

/** The URL registered for one assistant: n8n's URL plus `assistant_id` and `secret`. */
export function registeredUrl(webhookUrl: string, assistantId: number, secret: string): string {
	const separator = webhookUrl.includes('?') ? '&' : '?';
	return `${webhookUrl}${separator}assistant_id=${assistantId}&secret=${encodeURIComponent(secret)}`;
}

export function readRegistration(staticData: IDataObject): Registration | undefined {
	const value = staticData[KEY];
	if (!isObject(value)) return undefined;
	const { event, webhookUrl, assistants, settings, secretVersion } = value;
	// saved before secrets were per assistant: one secret for all
	const shared = typeof value.secret === 'string' && value.secret ? value.secret : undefined;
	if (!EVENTS.includes(event as TriggerEvent)) return undefined;
	if (typeof webhookUrl !== 'string' || !Array.isArray(assistants)) return undefined;
	const list: RegisteredAssistant[] = [];
	for (const entry of assistants) {
		if (!isObject(entry) || typeof entry.id !== 'number' || typeof entry.url !== 'string')
			return undefined;
		const secret = typeof entry.secret === 'string' && entry.secret ? entry.secret : shared;
		if (secret === undefined) return undefined;
		list.push({ id: entry.id, url: entry.url, secret, giveBack: readTargets(entry.giveBack) });
	}
	const registration: Registration = {
		event: event as TriggerEvent,
		webhookUrl,
		assistants: list,
	};
	if (typeof secretVersion === 'number' && secretVersion > 1)
		registration.secretVersion = secretVersion;
	if (isObject(settings)) {
		registration.settings = {
			send_webhook_only_on_completed: settings.send_webhook_only_on_completed !== false,
			include_recording_in_webhook: settings.include_recording_in_webhook !== false,
		};
	}
	return registration;
}

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

/** Replaces the stored registration (a new object, so n8n notices the change and saves it). */
export function writeRegistration(
	staticData: IDataObject,
	registration: Registration | undefined,
): void {
	if (registration === undefined || registration.assistants.length === 0) {
		if (KEY in staticData) delete staticData[KEY];
		return;
	}
	const stored: IDataObject = {
		event: registration.event,
		webhookUrl: registration.webhookUrl,
		assistants: registration.assistants.map((a) => ({
			id: a.id,
			url: a.url,
			secret: a.secret,
			giveBack: a.giveBack.map(copyTarget),
		})),
	};
	if (registration.settings) stored.settings = { ...registration.settings };
	if (registration.secretVersion) stored.secretVersion = registration.secretVersion;
	staticData[KEY] = stored;
}

export function readEvent(ctx: Pick<IHookFunctions, 'getNodeParameter'>): TriggerEvent {
	const event = ctx.getNodeParameter('event', INBOUND) as TriggerEvent;
	return EVENTS.includes(event) ? event : INBOUND;
}

/** What the form asks for; `secretVersion` is the form's URL Secret Version (world.ts reads it). */
export function readWanted(ctx: IHookFunctions, secretVersion: number): Wanted {
	const webhookUrl = ctx.getNodeWebhookUrl('default');
	if (!webhookUrl) {
		throw new NodeOperationError(
			ctx.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	}
	const event = readEvent(ctx);
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	if (
		event !== CONVERSATION_ENDED &&
		options.downloadRecording === true &&
		ctx.getNodeParameter('verifySecret', true) === false
	) {
		throw new NodeOperationError(
			ctx.getNode(),
			'"Download Recording" needs "Verify Secret" to be on',
			{
				description:
					'Without the secret check anyone who knows the webhook URL can post made-up call data, and the trigger fetches no recording for such a post. Turn "Verify Secret" on, or turn the option "Download Recording" off.',
			},
		);
	}
	const policy = ctx.getNodeParameter(
		'existingWebhook',
		'takeOverAndGiveBack',
	) as ExistingWebhookPolicy;
	const wanted: Wanted = {
		event,
		webhookUrl,
		assistantIds: readAssistantIds(ctx),
		policy: EXISTING_WEBHOOK_POLICIES.includes(policy) ? policy : 'takeOverAndGiveBack',
		secretVersion,
	};
	if (event === POST_CALL) {
		wanted.settings = {
			send_webhook_only_on_completed: options.onlyCompletedCalls !== false,
			include_recording_in_webhook: options.includeRecording !== false,
		};
	}
	return wanted;
}

/**
 * Whether the stored registration is what the node asks for: the same event,
 * the same n8n URL, the same assistants (each with the URL built from the
 * stored secret) and, for the post-call webhook, the same settings.
 */
export function registrationMatches(
	registration: Registration | undefined,
	wanted: Wanted,
): boolean {
	if (!registration) return false;
	if (registration.event !== wanted.event || registration.webhookUrl !== wanted.webhookUrl)
		return false;
	if (registration.assistants.length !== wanted.assistantIds.length) return false;
	// a raised URL Secret Version: the URLs registered before are to be replaced (and refused)
	if ((registration.secretVersion ?? 1) !== wanted.secretVersion) return false;
	for (const id of wanted.assistantIds) {
		const entry = registration.assistants.find((a) => a.id === id);
		if (!entry || entry.url !== registeredUrl(wanted.webhookUrl, id, entry.secret)) return false;
	}
	if (wanted.event === POST_CALL) {
		const a = registration.settings;
		const b = wanted.settings;
		if (!a || !b) return false;
		if (
			a.send_webhook_only_on_completed !== b.send_webhook_only_on_completed ||
			a.include_recording_in_webhook !== b.include_recording_in_webhook
		) {
			return false;
		}
	}
	return true;
}
