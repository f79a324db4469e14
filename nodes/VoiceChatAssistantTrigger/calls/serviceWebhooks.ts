import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, isObject } from '../../VoiceChatAssistant/transport';
import { CONVERSATION_ENDED, INBOUND } from '../core/events';
import { asNodeError } from '../core/service';
import type { PostCallSettings, WebhookTarget } from './registration';
import type { TriggerEvent } from '../core/events';

/*
 * What the webhook trigger asks of the service for the call and chat events:
 * that an assistant's webhook is switched on, given back or switched off (that
 * the service can reach this n8n, and its errors as n8n errors: core/service.ts).
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
