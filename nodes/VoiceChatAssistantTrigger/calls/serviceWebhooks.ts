import type { IHookFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, isObject } from '../../VoiceChatAssistant/transport';
import { credentialSettings } from '../../VoiceChatAssistant/transport/credentials';
import type { RequestContext } from '../../VoiceChatAssistant/transport/credentials';
import { CONVERSATION_ENDED, INBOUND } from './registration';
import type { PostCallSettings, TriggerEvent, WebhookTarget } from './registration';

/*
 * What the webhook trigger asks of the service: that it can reach this n8n, and
 * that an assistant's webhook is switched on, given back or switched off; and
 * the service's errors as n8n errors that name the assistant.
 */

/**
 * The switch of each event that has one URL and no settings: enable with
 * `{assistant_id, webhook_url}`, disable with `{assistant_id}`.
 */
const URL_SWITCHES: Partial<Record<TriggerEvent, { enable: string; disable: string }>> = {
	[INBOUND]: {
		enable: '/api/user/assistants/enable-inbound-webhook',
		disable: '/api/user/assistants/disable-inbound-webhook',
	},
	[CONVERSATION_ENDED]: {
		enable: '/api/user/assistants/enable-conversation-ended-webhook',
		disable: '/api/user/assistants/disable-conversation-ended-webhook',
	},
};

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
 * URL on a local address while the service (the credential's Base URL) is
 * not. When both are local (a service on this machine or network) nothing is
 * refused.
 */
export async function assertReachable(ctx: IHookFunctions, webhookUrl: string): Promise<void> {
	const webhookHost = hostOfUrl(webhookUrl);
	if (webhookHost === undefined || !isLocalHost(webhookHost)) return;
	const { baseUrl } = await credentialSettings(ctx as RequestContext);
	const serviceHost = hostOfUrl(baseUrl);
	if (serviceHost === undefined || isLocalHost(serviceHost)) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`The service cannot reach this n8n: its webhook URL is on ${webhookHost}, a local address`,
		{
			description: `n8n builds webhook URLs from its N8N_WEBHOOK_URL setting (WEBHOOK_URL on n8n 1.x), which is not set to an address the service at ${serviceHost} can reach. Set N8N_WEBHOOK_URL (on n8n 1.x WEBHOOK_URL) to the public https address of this n8n (for example N8N_WEBHOOK_URL=https://n8n.example.com/) and restart n8n, then activate again.`,
		},
	);
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

/** Registers `url` as the webhook of one assistant. */
export async function enableWebhook(
	ctx: IHookFunctions,
	event: TriggerEvent,
	assistantId: number,
	url: string,
	settings: PostCallSettings | undefined,
): Promise<void> {
	let response: unknown;
	const urlSwitch = URL_SWITCHES[event];
	if (urlSwitch) {
		response = await apiRequest.call(ctx, 'POST', urlSwitch.enable, {
			body: { assistant_id: assistantId, webhook_url: url },
			retry: 'safe',
		});
	} else {
		response = await apiRequest.call(ctx, 'PUT', `/api/user/assistant/${assistantId}`, {
			body: {
				is_webhook_active: true,
				webhook_url: url,
				send_webhook_only_on_completed: settings?.send_webhook_only_on_completed ?? true,
				include_recording_in_webhook: settings?.include_recording_in_webhook ?? true,
			},
		});
	}
	if (notFoundAnswer(response)) {
		throw new NodeOperationError(ctx.getNode(), `Assistant ${assistantId} not found`, {
			description: 'Check that the assistant exists and belongs to the account of the credential.',
		});
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
	if (URL_SWITCHES[event] && target.url === null) {
		return (await disableWebhook(ctx, event, assistantId)) === 'gone' ? 'gone' : 'restored';
	}
	try {
		if (URL_SWITCHES[event]) {
			await enableWebhook(ctx, event, assistantId, target.url as string, undefined);
		} else {
			const response = await apiRequest.call(ctx, 'PUT', `/api/user/assistant/${assistantId}`, {
				body: {
					is_webhook_active: target.active && target.url !== null,
					webhook_url: target.url,
					send_webhook_only_on_completed: target.settings?.send_webhook_only_on_completed ?? true,
					include_recording_in_webhook: target.settings?.include_recording_in_webhook ?? true,
				},
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
	const path = URL_SWITCHES[event]?.disable ?? '/api/user/assistants/disable-webhook';
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
