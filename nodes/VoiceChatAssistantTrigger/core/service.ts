import type { IDataObject, IHookFunctions, INode, ITriggerFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, asList, isObject } from '../../VoiceChatAssistant/transport';
import { CALL_EVENTS } from './events';
import type { TriggerEvent } from './events';

/*
 * What the webhook trigger asks of the service, and how it reads the answers: that the service
 * can reach this n8n; an assistant's webhooks as the assistant list shows them, switched on,
 * given back or switched off (the call and chat events); the service's errors as n8n errors
 * that name the assistant. The one home of these requests for every event family.
 */

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

/** The numbers of a dotted IPv4 address, or undefined. */
function ipv4(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((p) => p <= 255) ? parts : undefined;
}

function localIpv4([a, b]: number[]): boolean {
	return (
		a === 127 || // loopback
		a === 10 ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 169 && b === 254) || // link-local
		a === 0
	);
}

/**
 * Whether a URL's host is one that only this machine or its private network
 * can reach: localhost, loopback (127/8, ::1), private (10/8, 172.16/12,
 * 192.168/16, fc00::/7) or link-local (169.254/16, fe80::/10) addresses.
 */
export function isLocalHost(hostname: string): boolean {
	const host = hostname
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	const v4 = ipv4(host);
	if (v4) return localIpv4(v4);
	if (!host.includes(':')) return false;
	if (host === '::1' || host === '::') return true;
	// IPv4-mapped (::ffff:a.b.c.d, which URL writes as ::ffff:xxxx:xxxx)
	const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(host);
	if (mapped) {
		if (mapped[1]) return localIpv4(ipv4(mapped[1]) ?? [255]);
		const high = parseInt(mapped[2], 16);
		return localIpv4([high >> 8, high & 0xff]);
	}
	const first = parseInt(host.split(':')[0] || '0', 16);
	return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

function hostOfUrl(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}

/**
 * Refuses an activation the service could never deliver to: n8n's webhook
 * URL on a local address while the service (the credential's Base URL,
 * read only then) is not. When both are local (a service on this machine or
 * network) nothing is refused.
 */
export async function assertReachable(
	node: INode,
	webhookUrl: string,
	serviceBaseUrl: () => Promise<string>,
): Promise<void> {
	const webhookHost = hostOfUrl(webhookUrl);
	if (webhookHost === undefined || !isLocalHost(webhookHost)) return;
	const serviceHost = hostOfUrl(await serviceBaseUrl());
	if (serviceHost === undefined || isLocalHost(serviceHost)) return;
	throw new NodeOperationError(
		node,
		`The service cannot reach this n8n: its webhook URL is on ${webhookHost}, a local address`,
		{
			description: `n8n builds webhook URLs from its N8N_WEBHOOK_URL setting (WEBHOOK_URL on n8n 1.x), which is not set to an address the service at ${serviceHost} can reach. Set N8N_WEBHOOK_URL (on n8n 1.x WEBHOOK_URL) to the public https address of this n8n (for example N8N_WEBHOOK_URL=https://n8n.example.com/) and restart n8n, then activate again.`,
		},
	);
}

/** The error as n8n's own error types: NodeApiError and NodeOperationError as they are, anything else wrapped. */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error));
}

/** Names the assistant in an error of the service, keeping the error's type. */
export function aboutAssistant(
	node: INode,
	error: unknown,
	assistantId: number,
	action: string,
): NodeApiError | NodeOperationError {
	const nodeError = asNodeError(node, error);
	if (!nodeError.message.startsWith(`Assistant ${assistantId}`)) {
		nodeError.message = `${action} for assistant ${assistantId} failed: ${nodeError.message}`;
	}
	return nodeError;
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
	const { listField: field, switches } = CALL_EVENTS[event];
	if (switches) {
		const url = text(item[field]);
		return { readable: field in item, target: { url, active: url !== null } };
	}
	const url = text(item[field]);
	const settings: PostCallSettings = {
		send_webhook_only_on_completed: flag(item.send_webhook_only_on_completed, true),
		include_recording_in_webhook: flag(item.include_recording_in_webhook, true),
	};
	return {
		readable: field in item || 'is_webhook_active' in item,
		target: { url, active: flag(item.is_webhook_active, false) && url !== null, settings },
	};
}

/**
 * The given assistants as the paginated assistant list shows them (the service has no get-one
 * endpoint; the list carries each assistant's whole configuration), each read by `read`, stopping
 * once all are found. An assistant the list does not show is missing from the map.
 */
export async function readListedAssistants<T>(
	ctx: IHookFunctions | ITriggerFunctions,
	assistantIds: number[],
	read: (item: IDataObject) => T,
): Promise<Map<number, T>> {
	const found = new Map<number, T>();
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
			found.set(id, read(item));
		}
		const next = isObject(response) ? response.next_page_url : undefined;
		const last = isObject(response) ? Number(response.last_page) : NaN;
		if (items.length === 0 || (!next && !(Number.isFinite(last) && page < last))) break;
	}
	return found;
}

/** Updates an assistant: the fields of `body` replace its own (a list such as `tool_ids` whole). */
export async function updateAssistant(
	ctx: IHookFunctions | ITriggerFunctions,
	assistantId: number,
	body: IDataObject,
): Promise<unknown> {
	return await apiRequest.call(ctx, 'PUT', `/api/user/assistant/${assistantId}`, { body });
}

/** The webhook state of the given assistants, as the assistant list shows it. */
export async function readWebhookStates(
	ctx: IHookFunctions,
	event: TriggerEvent,
	assistantIds: number[],
): Promise<Map<number, AssistantWebhookState>> {
	const listed = await readListedAssistants(ctx, assistantIds, (item) => targetOf(item, event));
	const states = new Map<number, AssistantWebhookState>();
	for (const id of assistantIds) {
		const state = listed.get(id);
		states.set(
			id,
			state
				? { found: true, ...state }
				: { found: false, readable: false, target: { url: null, active: false } },
		);
	}
	return states;
}

/** What each given assistant posts to now, as the service says; a failed read names the first assistant. */
export async function readAssistantStates(
	ctx: IHookFunctions,
	event: TriggerEvent,
	assistantIds: number[],
): Promise<Map<number, AssistantWebhookState>> {
	try {
		return await readWebhookStates(ctx, event, assistantIds);
	} catch (error) {
		throw aboutAssistant(ctx.getNode(), error, assistantIds[0], 'Reading the current webhook');
	}
}

/** "Assistant not found" on an answer that is otherwise a success (status codes are not documented). */
function notFoundAnswer(response: unknown): boolean {
	return (
		isObject(response) &&
		!('data' in response) &&
		typeof response.message === 'string' &&
		/not found/i.test(response.message)
	);
}

/** Whether an error says the assistant (and with it the registration) no longer exists. */
export function isGone(error: unknown): boolean {
	if (!isObject(error)) return false;
	const httpCode = (error as { httpCode?: unknown }).httpCode;
	if (String(httpCode) === '404') return true;
	const message = (error as { message?: unknown }).message;
	return typeof message === 'string' && /assistant not found/i.test(message);
}

/**
 * Points the webhook of one assistant at `url`, switched on (with the post-call settings where the
 * event has them); an error names the assistant and the `action` (registering, or giving back).
 */
export async function enableWebhook(
	ctx: IHookFunctions,
	event: TriggerEvent,
	assistantId: number,
	url: string,
	settings: PostCallSettings | undefined,
	action = 'Registering the webhook',
): Promise<void> {
	try {
		let response: unknown;
		const urlSwitch = CALL_EVENTS[event].switches;
		if (urlSwitch) {
			response = await apiRequest.call(ctx, 'POST', urlSwitch.enable, {
				body: { assistant_id: assistantId, webhook_url: url },
				retry: 'safe',
			});
		} else {
			response = await updateAssistant(ctx, assistantId, {
				is_webhook_active: true,
				webhook_url: url,
				send_webhook_only_on_completed: settings?.send_webhook_only_on_completed ?? true,
				include_recording_in_webhook: settings?.include_recording_in_webhook ?? true,
			});
		}
		if (notFoundAnswer(response)) {
			throw new NodeOperationError(ctx.getNode(), `Assistant ${assistantId} not found`, {
				description:
					'Check that the assistant exists and belongs to the account of the credential.',
			});
		}
	} catch (error) {
		throw aboutAssistant(ctx.getNode(), error, assistantId, action);
	}
}

/**
 * Points the assistant's webhook back at `target`: the post-call webhook with
 * its switch, URL and both settings in one update; the inbound webhook by
 * enabling it for the URL, or disabling it when there is none.
 */
export async function restoreWebhook(
	ctx: IHookFunctions,
	event: TriggerEvent,
	assistantId: number,
	target: WebhookTarget,
): Promise<'restored' | 'gone'> {
	if (CALL_EVENTS[event].switches && target.url === null) {
		return (await disableWebhook(ctx, event, assistantId)) === 'gone' ? 'gone' : 'restored';
	}
	try {
		if (CALL_EVENTS[event].switches) {
			await enableWebhook(
				ctx,
				event,
				assistantId,
				target.url as string,
				undefined,
				'Giving the webhook back',
			);
		} else {
			const response = await updateAssistant(ctx, assistantId, {
				is_webhook_active: target.active && target.url !== null,
				webhook_url: target.url,
				send_webhook_only_on_completed: target.settings?.send_webhook_only_on_completed ?? true,
				include_recording_in_webhook: target.settings?.include_recording_in_webhook ?? true,
			});
			if (notFoundAnswer(response)) return 'gone';
		}
	} catch (error) {
		if (isGone(error)) return 'gone';
		throw asNodeError(ctx.getNode(), error);
	}
	return 'restored';
}

/** Removes the webhook of one assistant; an assistant that no longer exists counts as done. */
export async function disableWebhook(
	ctx: IHookFunctions,
	event: TriggerEvent,
	assistantId: number,
): Promise<'removed' | 'gone'> {
	const path = CALL_EVENTS[event].switches?.disable ?? '/api/user/assistants/disable-webhook';
	let response: unknown;
	try {
		response = await apiRequest.call(ctx, 'POST', path, {
			body: { assistant_id: assistantId },
			retry: 'safe',
		});
	} catch (error) {
		if (isGone(error)) return 'gone';
		throw asNodeError(ctx.getNode(), error);
	}
	return notFoundAnswer(response) ? 'gone' : 'removed';
}
