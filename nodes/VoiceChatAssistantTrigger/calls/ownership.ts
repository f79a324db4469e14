import type { IDataObject, IHookFunctions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, asList, isObject } from '../../VoiceChatAssistant/transport';
import { openTargets, PROBE_ANSWER_KEY, SEALED_KEY } from './probeAnswer';
import { MAX_GIVE_BACK } from './registration';
import { CONVERSATION_ENDED, INBOUND } from '../core/events';
import type { PostCallSettings, WebhookTarget } from './registration';
import type { TriggerEvent } from '../core/events';

/**
 * Who holds an assistant's webhook, and how to give it back.
 *
 * The service keeps one URL per assistant and event, and its assistant list
 * shows it (`webhook_url`, `is_webhook_active` and both settings for the
 * post-call webhook; `inbound_webhook_url` for the inbound one). So before
 * registering, the trigger reads what the assistant posts to and keeps it as
 * the target to give back; before removing, it reads again and touches the
 * assistant only while it still holds this trigger's URL.
 *
 * Another trigger of this package is recognised by its URL (n8n's URL with
 * `assistant_id` and a 32-character `secret`) and asked whether it is still
 * live with a probe: a POST carrying PROBE_HEADER, which the trigger answers
 * (without starting the workflow) with the targets it would give back,
 * sealed under a key only the same API key gives (probeAnswer.ts). That is
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
export { PROBE_ANSWER_KEY };
const PROBE_TIMEOUT_MS = 5_000;

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

/** The assistant's webhook as the service shows it. */
export interface AssistantWebhookState {
	found: boolean;
	/** False when the list item does not show the URL (the trigger then trusts its own records). */
	readable: boolean;
	target: WebhookTarget;
}

/** true/false, 1/0, "1"/"0", "true"/"false" (the list returns some booleans as numbers). */
function flag(value: unknown, fallback: boolean): boolean {
	if (value === true || value === 1 || value === '1' || value === 'true') return true;
	if (value === false || value === 0 || value === '0' || value === 'false') return false;
	return fallback;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The webhook target of one list item, for the given event. */
export function targetOf(
	item: IDataObject,
	event: TriggerEvent,
): { readable: boolean; target: WebhookTarget } {
	if (event === INBOUND || event === CONVERSATION_ENDED) {
		const field = event === INBOUND ? 'inbound_webhook_url' : 'conversation_ended_webhook_url';
		const url = text(item[field]);
		return { readable: field in item, target: { url, active: url !== null } };
	}
	const url = text(item.webhook_url);
	const settings: PostCallSettings = {
		send_webhook_only_on_completed: flag(item.send_webhook_only_on_completed, true),
		include_recording_in_webhook: flag(item.include_recording_in_webhook, true),
	};
	return {
		readable: 'webhook_url' in item || 'is_webhook_active' in item,
		target: { url, active: flag(item.is_webhook_active, false) && url !== null, settings },
	};
}

/**
 * Reads the webhook state of the given assistants from the paginated assistant
 * list (the service has no get-one endpoint), stopping once all are found.
 */
export async function readWebhookStates(
	ctx: IHookFunctions,
	event: TriggerEvent,
	assistantIds: number[],
): Promise<Map<number, AssistantWebhookState>> {
	const states = new Map<number, AssistantWebhookState>();
	const wanted = new Set(assistantIds);
	for (let page = 1; wanted.size > 0; page++) {
		const response = await apiRequest.call(ctx, 'GET', '/api/user/assistants/get', {
			qs: { per_page: 100, page },
		});
		const items = asList(response);
		for (const item of items) {
			const id = Number(item.id);
			if (!wanted.has(id)) continue;
			wanted.delete(id);
			states.set(id, { found: true, ...targetOf(item, event) });
		}
		const next = isObject(response) ? response.next_page_url : undefined;
		const last = isObject(response) ? Number(response.last_page) : NaN;
		if (items.length === 0 || (!next && !(Number.isFinite(last) && page < last))) break;
	}
	for (const id of wanted)
		states.set(id, { found: false, readable: false, target: { url: null, active: false } });
	return states;
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

/**
 * The bases of this n8n's webhook URLs, from this trigger's webhook URL: its
 * origin and path without the last two segments (`/<webhook id>/webhook`),
 * e.g. `https://n8n.example.com/webhook`, and the same with the test endpoint
 * (`/webhook-test`) for a production URL, or the production endpoint for a
 * test URL, so that a test listener and an active workflow of this n8n can
 * ask each other.
 */
export function webhookBases(webhookUrl: string): string[] {
	try {
		const url = new URL(webhookUrl);
		const segments = url.pathname.replace(/\/+$/, '').split('/');
		if (segments.length < 4) return [];
		const prefix = segments.slice(0, -3).join('/');
		const endpoint = segments[segments.length - 3];
		const twin = endpoint.endsWith('-test')
			? endpoint.slice(0, -'-test'.length)
			: `${endpoint}-test`;
		return [endpoint, twin].filter(Boolean).map((e) => `${url.origin}${prefix}/${e}`);
	} catch {
		return [];
	}
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
