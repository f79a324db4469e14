import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../VoiceChatAssistant/transport';
import { disableWebhook, restoreWebhook } from '../core/service';
import type { AssistantWebhookState } from '../core/service';
import { CALL_EVENTS } from '../core/events';
import type { TriggerEvent } from '../core/events';
import { copyTarget, MAX_GIVE_BACK, readTargets } from './registration';
import type { RegisteredAssistant, Registration, WebhookTarget, Wanted } from './registration';

/**
 * Who holds an assistant's webhook, and how to give it back.
 *
 * The service keeps one URL per assistant and event, and its assistant list
 * shows it (`webhook_url`, `is_webhook_active` and both settings for the
 * post-call webhook; `inbound_webhook_url` for the inbound one; read by
 * readAssistantStates in core/service.ts). So before
 * registering, the trigger reads what the assistant posts to and keeps it as
 * the target to give back; before removing, it reads again and touches the
 * assistant only while it still holds this trigger's URL.
 *
 * Another trigger of this package is recognised by its URL (n8n's URL with
 * `assistant_id` and a 32-character `secret`) and asked whether it is still
 * live with a probe: a POST carrying PROBE_HEADER, which the trigger answers
 * (without starting the workflow) with the targets it would give back,
 * sealed under a key only the same API key gives (below). That is
 * how a chain F → A → B ends with F again whichever of A and B goes first.
 *
 * Probes go only to this n8n's own webhooks: URLs under the base of this
 * trigger's webhook URL (its origin and path without `/<webhook id>/webhook`,
 * production and test endpoint). A URL that looks like a trigger's elsewhere
 * is never probed: it is treated like any other URL. A probe follows no
 * redirect: a live trigger answers its probe itself, so a 3xx is not live,
 * and following it would ask a host off this n8n, whose answer could plant
 * targets to give the assistant's calls to.
 */

/** Header of a liveness probe between triggers of this package. */
export const PROBE_HEADER = 'x-voice-chat-assistant-probe';
export type { AssistantWebhookState };
const PROBE_TIMEOUT_MS = 5_000;
const LOG = 'Voice Chat Assistant Trigger:';
/** What a live trigger answers: `{[PROBE_ANSWER_KEY]: 'live', [SEALED_KEY]: '<sealed targets>'}`. */
export const PROBE_ANSWER_KEY = 'voiceChatAssistantTrigger';
export const SEALED_KEY = 'sealedGiveBack';

const LABEL = 'voice-chat-assistant-trigger give-back v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * What probing needs: this n8n's webhook bases (webhookBases of the trigger's URL), the
 * credential's Authorization header (to open a live trigger's answer), n8n's HTTP helper and log.
 */
export interface Prober {
	bases: string[];
	authorization: string | undefined;
	httpRequest: IHookFunctions['helpers']['httpRequest'];
	logger: IHookFunctions['logger'];
}

/** What deciding who holds a registered assistant needs: probing, and the secrets of this node's URLs. */
export interface Owner extends Prober {
	/** The secret of one assistant's URL, or undefined without an API key. */
	secretOf(event: TriggerEvent, assistantId: number): string | undefined;
}

/** Whether the state shows the assistant posting to exactly `url`. */
export function holds(state: AssistantWebhookState, url: string): boolean {
	return state.target.active && state.target.url === url;
}

/** The URL without its query string. */
function withoutQuery(url: string): string {
	const at = url.indexOf('?');
	return at === -1 ? url : url.slice(0, at);
}

/** Whether `url` is one that a trigger of this package registers (n8n URL + assistant_id + 32-character secret). */
export function isTriggerUrl(url: string | null): boolean {
	if (!url) return false;
	try {
		const parsed = new URL(url);
		return (
			/^\d+$/.test(parsed.searchParams.get('assistant_id') ?? '') &&
			/^[A-Za-z0-9]{32}$/.test(parsed.searchParams.get('secret') ?? '')
		);
	} catch {
		return false;
	}
}

/** The URL registered for one assistant: n8n's URL plus `assistant_id` and `secret`. */
export function registeredUrl(webhookUrl: string, assistantId: number, secret: string): string {
	const separator = webhookUrl.includes('?') ? '&' : '?';
	return `${webhookUrl}${separator}assistant_id=${assistantId}&secret=${encodeURIComponent(secret)}`;
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
	if (CALL_EVENTS[wanted.event].postCallSettings) {
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

/** Whether `url` is a trigger URL under one of `bases` (this n8n's own webhooks), and so may be probed. */
export function isOnWebhookBase(url: string | null, bases: string[]): boolean {
	if (!url || !isTriggerUrl(url)) return false;
	try {
		const candidate = new URL(url);
		if (candidate.username || candidate.password) return false;
		return bases.some((base) => {
			const prefix = new URL(`${base}/`);
			return candidate.origin === prefix.origin && candidate.pathname.startsWith(prefix.pathname);
		});
	} catch {
		return false;
	}
}

/** Whether `url` belongs to a trigger of this package on this n8n (the only URLs that are probed). */
export function mayProbe(prober: Pick<Prober, 'bases'>, url: string | null): boolean {
	return isOnWebhookBase(url, prober.bases);
}

/** Whether `url` was registered for n8n's URL `webhookUrl` (this very registration, any secret). */
export function isSameWebhook(url: string | null, webhookUrl: string): boolean {
	return url !== null && isTriggerUrl(url) && withoutQuery(url) === withoutQuery(webhookUrl);
}

/** Whether `url` belongs to the same trigger node: its test URL for its production URL and back. */
export function isSameNode(url: string | null, webhookUrl: string): boolean {
	if (url === null || !isTriggerUrl(url)) return false;
	const normal = (u: string) => withoutQuery(u).replace('/webhook-test/', '/webhook/');
	return normal(url) === normal(webhookUrl);
}

/** The host a URL points at, for messages (never the path or the query, which may hold secrets). */
export function hostOf(url: string | null): string {
	if (!url) return 'an unknown address';
	try {
		return new URL(url).host;
	} catch {
		return 'an address that is not a valid URL';
	}
}

/**
 * Asks the trigger behind `url` whether it is live. Live means: it answered
 * the probe itself (200) as a trigger of this package holding this very URL;
 * anything else (404 from n8n for a deactivated workflow, 401, a redirect,
 * no connection) is not live. A URL off this n8n's webhook base is not asked
 * (and not live). What a live trigger would give back comes sealed; with
 * another API key than this trigger's it cannot be opened and is left out.
 */
export async function probe(
	prober: Prober,
	url: string,
): Promise<{ live: boolean; giveBack: WebhookTarget[] }> {
	if (!mayProbe(prober, url)) return { live: false, giveBack: [] };
	const prefix = `Voice Chat Assistant Trigger: probe of ${hostOf(url)}`;
	try {
		const response = (await prober.httpRequest({
			method: 'POST',
			url,
			headers: { [PROBE_HEADER]: '1', Accept: 'application/json' },
			body: {},
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: PROBE_TIMEOUT_MS,
		})) as IN8nHttpFullResponse;
		const { statusCode: status, body } = response;
		if (status >= 300 && status < 400) {
			prober.logger.debug(`${prefix}: a redirect (HTTP ${status}), not followed: not live`);
		} else if (status === 200 && isObject(body) && body[PROBE_ANSWER_KEY] === 'live') {
			const assistantId = Number(new URL(url).searchParams.get('assistant_id'));
			const giveBack = prober.authorization
				? openTargets(body[SEALED_KEY], prober.authorization, assistantId)
				: undefined;
			if (giveBack === undefined) {
				prober.logger.warn(
					`${prefix}: live, but what it would give back is sealed with another API key and is not kept; if that workflow is deactivated before this one, its earlier webhook is not restored`,
				);
			}
			return { live: true, giveBack: giveBack ?? [] };
		}
	} catch (error) {
		prober.logger.debug(`${prefix} failed: ${(error as Error).message}`);
	}
	return { live: false, giveBack: [] };
}

/**
 * The targets to give back when this trigger takes over an assistant posting
 * to `current`: the current target first, then, when it is another live
 * trigger of this package on this n8n, the targets that one would give back.
 * A trigger that no longer answers is skipped (giving calls back to it would
 * lose them). A URL elsewhere is kept as it is, whatever it looks like.
 */
export async function giveBackFrom(
	prober: Prober,
	current: WebhookTarget,
): Promise<WebhookTarget[]> {
	if (!current.active || !mayProbe(prober, current.url)) return [current];
	const answer = await probe(prober, current.url as string);
	if (!answer.live) return [];
	return [current, ...answer.giveBack].slice(0, MAX_GIVE_BACK);
}

/**
 * The first target of `giveBack` that can take calls: a switched-off or empty
 * target and a URL that is not a trigger of this package on this n8n are
 * taken as they are; a trigger of this package on this n8n only when it
 * answers the probe.
 */
export async function firstLiveTarget(
	prober: Prober,
	giveBack: WebhookTarget[],
): Promise<WebhookTarget | undefined> {
	for (const target of giveBack) {
		if (!target.active || !mayProbe(prober, target.url)) return target;
		if ((await probe(prober, target.url as string)).live) return target;
	}
	return undefined;
}

/** Whether the assistant posts to the stored URL or to the one this node registers (a stale save may hold an older one). */
function holdsOwn(
	world: Owner,
	state: AssistantWebhookState,
	registration: Registration,
	entry: RegisteredAssistant,
): boolean {
	if (holds(state, entry.url)) return true;
	const secret = world.secretOf(registration.event, entry.id);
	return (
		secret !== undefined && holds(state, registeredUrl(registration.webhookUrl, entry.id, secret))
	);
}

/**
 * Where an assistant of the registration sends its calls, for checkExists: `here` (to this
 * trigger, or the list does not show it), `gone` (no such assistant), `lost`, or another live
 * trigger's URL on this n8n to ask (a trigger that took it over is respected).
 */
export function whereCallsGo(
	world: Owner,
	wanted: Wanted,
	registration: Registration,
	entry: RegisteredAssistant,
	state: AssistantWebhookState,
): 'here' | 'gone' | 'lost' | { ask: string } {
	if (!state.found) return 'gone';
	if (!state.readable || holdsOwn(world, state, registration, entry)) return 'here';
	const { url, active } = state.target;
	if (active && mayProbe(world, url) && !isSameWebhook(url, wanted.webhookUrl))
		return { ask: url as string };
	return 'lost';
}

/** The assistants removal gives back: those that exist and still hold this trigger's URL (or do not show it). */
export function planRemoval(
	world: Owner,
	registration: Registration,
	states: Map<number, AssistantWebhookState>,
): RegisteredAssistant[] {
	return registration.assistants.filter((entry) => {
		const state = states.get(entry.id)!;
		if (!state.found) {
			world.logger.debug(`${LOG} assistant ${entry.id} no longer exists; nothing to remove`);
			return false;
		}
		if (state.readable && !holdsOwn(world, state, registration, entry)) {
			world.logger.info(
				`${LOG} assistant ${entry.id} sends its calls to ${state.target.active ? hostOf(state.target.url) : 'nowhere'} by now; left as it is`,
			);
			return false;
		}
		return true;
	});
}

/**
 * Gives one assistant its first live earlier target back (firstLiveTarget), or switches its
 * webhook off when there is none; says what it did, for the log.
 */
async function giveBack(
	ctx: IHookFunctions,
	prober: Prober,
	event: TriggerEvent,
	entry: RegisteredAssistant,
): Promise<string> {
	const target = await firstLiveTarget(prober, entry.giveBack);
	const outcome = target
		? await restoreWebhook(ctx, event, entry.id, target)
		: await disableWebhook(ctx, event, entry.id);
	if (outcome === 'gone') return 'gone';
	if (!target) return 'switched off';
	return `given back to ${target.active ? hostOf(target.url) : 'its earlier switched-off settings'}`;
}

/**
 * Gives each entry its earlier webhook back (giveBack), one after another; returns those that
 * failed (logged as `failure` with the assistant and the error), which are to be tried again later.
 */
export async function giveBackEach(
	ctx: IHookFunctions,
	prober: Prober,
	event: TriggerEvent,
	entries: RegisteredAssistant[],
	failure: (assistantId: number) => string,
): Promise<RegisteredAssistant[]> {
	const failed: RegisteredAssistant[] = [];
	for (const entry of entries) {
		try {
			const outcome = await giveBack(ctx, prober, event, entry);
			prober.logger.debug(`${LOG} assistant ${entry.id}: ${outcome}`);
		} catch (error) {
			prober.logger.warn(`${LOG} ${failure(entry.id)}: ${(error as Error).message}`);
			failed.push(entry);
		}
	}
	return failed;
}

/** The activation error of "Fail Activation": names the host that receives the calls today. */
export function occupiedError(
	node: INode,
	assistantId: number,
	current: WebhookTarget,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`Assistant ${assistantId} already sends its calls to ${hostOf(current.url)}`,
		{
			description:
				'"If the Assistant Already Has a Webhook" is set to "Fail Activation". Choose "Take Over and Give Back" to receive the calls while this workflow is active and hand them back afterwards, or remove that webhook in the service first.',
		},
	);
}

/**
 * What a live trigger answers another trigger's probe (above), and
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
 * (probe says what that costs).
 */

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
export function probeAnswer(
	entry: RegisteredAssistant,
	authorization: string | undefined,
): IDataObject {
	const answer: IDataObject = { [PROBE_ANSWER_KEY]: 'live' };
	if (authorization) answer[SEALED_KEY] = sealTargets(entry.giveBack, authorization, entry.id);
	return answer;
}
