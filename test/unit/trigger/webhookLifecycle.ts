/**
 * The service the trigger's webhook lifecycle tests talk to: each assistant's
 * webhook settings kept as state behind nock (the assistant endpoints of
 * registeredTrigger.ts, the webhook switches) and other triggers' URLs on this n8n that answer the
 * liveness probe or not; plus the trigger's parameters and what it saves.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { sealTargets } from '../../../nodes/VoiceChatAssistantTrigger/calls/ownership';
import type { WebhookTarget } from '../../../nodes/VoiceChatAssistantTrigger/calls/registration';
import { TEST_API_KEY } from '../../helpers/context';
import {
	PRODUCTION_URL,
	activate,
	createHookContext,
	createWebhookContext,
} from '../../helpers/hookContext';
import {
	ASSISTANT_LIST,
	assistantService,
	registeredTrigger,
	trigger,
} from '../../helpers/registeredTrigger';
import type { HookContextOptions } from '../../helpers/hookContext';

export const SECRET = /^[A-Za-z0-9]{32}$/;
export { ASSISTANT_LIST as LIST } from '../../helpers/registeredTrigger';
export const ENABLE_INBOUND = '/api/user/assistants/enable-inbound-webhook';
export const DISABLE_INBOUND = '/api/user/assistants/disable-inbound-webhook';
export const DISABLE_POST_CALL = '/api/user/assistants/disable-webhook';
export const ENABLE_CHAT = '/api/user/assistants/enable-conversation-ended-webhook';
export const DISABLE_CHAT = '/api/user/assistants/disable-conversation-ended-webhook';
export const CRM = 'https://crm.example.com/hook?token=crm-token';
/** Another workflow's trigger on this n8n (its URL carries assistant_id and a 32-character secret). */
export const OTHER =
	'https://n8n.example.com/webhook/aaaa-other/webhook?assistant_id=12&secret=OtherSecretOtherSecretOtherSecre';
/** A URL shaped like a trigger's, on another host: never probed. */
export const OFF_HOST =
	'https://n8n.other.example.com/webhook/aaaa-other/webhook?assistant_id=12&secret=OtherSecretOtherSecretOtherSecre';
export const N8N_HOSTS = ['https://n8n.example.com', 'https://n8n.other.example.com'];

export interface Assistant {
	id: number;
	name?: string;
	webhook_url: string | null;
	is_webhook_active: boolean | number;
	send_webhook_only_on_completed: boolean | number;
	include_recording_in_webhook: boolean | number;
	inbound_webhook_url: string | null;
	conversation_ended_webhook_url?: string | null;
}

export function assistant(id: number, extra: Partial<Assistant> = {}): Assistant {
	return {
		id,
		name: `Assistant ${id}`,
		webhook_url: null,
		is_webhook_active: false,
		send_webhook_only_on_completed: true,
		include_recording_in_webhook: true,
		inbound_webhook_url: null,
		conversation_ended_webhook_url: null,
		...extra,
	};
}

/** The webhook switches: the route, what it changes of the assistant (given the posted URL), its answer. */
const SWITCHES: Array<[string, (a: Assistant, url: string) => void, string]> = [
	[
		ENABLE_INBOUND,
		(a, url) => (a.inbound_webhook_url = url),
		'Inbound webhook enabled successfully',
	],
	[DISABLE_INBOUND, (a) => (a.inbound_webhook_url = null), 'Inbound webhook disabled successfully'],
	[
		ENABLE_CHAT,
		(a, url) => (a.conversation_ended_webhook_url = url),
		'Conversation ended webhook enabled successfully',
	],
	[
		DISABLE_CHAT,
		(a) => (a.conversation_ended_webhook_url = null),
		'Conversation ended webhook disabled successfully',
	],
	[DISABLE_POST_CALL, (a) => (a.is_webhook_active = false), 'Webhook disabled successfully'],
];

/**
 * The service: the assistant endpoints and the webhook switches, all
 * changing `assistants`.
 * `live` maps a trigger URL to what that trigger answers a probe with
 * (its give-back list, sealed as a trigger with the tests' credential seals
 * it); any other n8n URL answers 404 as n8n does for a deactivated workflow.
 */
export function service(assistants: Assistant[], live: Map<string, IDataObject[]> = new Map()) {
	const scope = assistantService(assistants);
	for (const [path, change, message] of SWITCHES) {
		scope.post(path).reply((_uri, body) => {
			const a = assistants.find((x) => x.id === Number((body as IDataObject).assistant_id));
			if (!a) return [404, { message: 'Assistant not found' }];
			change(a, String((body as IDataObject).webhook_url));
			return [200, { message, data: [] }];
		});
	}
	for (const host of N8N_HOSTS) {
		nock(host)
			.persist()
			.post(/.*/)
			.reply(function (uri) {
				if (this.req.headers['x-voice-chat-assistant-probe'] !== '1') return [500, 'not a probe'];
				const giveBack = live.get(`${host}${uri}`);
				if (!giveBack) return [404, { message: 'not registered' }];
				const assistantId = Number(new URL(uri, host).searchParams.get('assistant_id'));
				const sealed = sealTargets(
					giveBack as unknown as WebhookTarget[],
					`Bearer ${TEST_API_KEY}`,
					assistantId,
				);
				return [200, { voiceChatAssistantTrigger: 'live', sealedGiveBack: sealed }];
			});
	}
	return { assistants, live };
}

/**
 * The service with assistant 12 on OTHER's inbound webhook: OTHER answers the probe as live,
 * giving back `giveBack`, or (without it) as a trigger that no longer answers.
 */
export function serviceWithOther(giveBack?: IDataObject[]) {
	const live = new Map<string, IDataObject[]>();
	if (giveBack) live.set(OTHER, giveBack);
	return service([assistant(12, { inbound_webhook_url: OTHER })], live);
}

/** The requests of a take-over or give-back that probes OTHER, then points assistant 12's inbound webhook at `url`. */
export function probeOtherThenEnable(url: string): string[] {
	return [
		`GET ${ASSISTANT_LIST} page=1`,
		`PROBE ${OTHER}`,
		`POST ${ENABLE_INBOUND} {"assistant_id":12,"webhook_url":"${url}"}`,
	];
}

/** Assistant 12 watched for Inbound Call Completed; its secret is the one create() makes. */
export const watched = registeredTrigger({
	assistants: [12],
	parameters: { existingWebhook: 'takeOverAndGiveBack' },
});

export function inboundParams(extra: IDataObject = {}): IDataObject {
	return watched.parameters(extra);
}

export function postCallParams(extra: IDataObject = {}): IDataObject {
	return inboundParams({ event: 'callCompleted', ...extra });
}

export function hook(options: HookContextOptions) {
	return createHookContext(options);
}

export function registration(staticData: IDataObject): IDataObject {
	return staticData.registration as IDataObject;
}

/** The secret registered for one assistant. */
export function secretOf(staticData: IDataObject, id = 12): string {
	const entry = (registration(staticData).assistants as IDataObject[]).find((a) => a.id === id);
	return String(entry?.secret);
}

/**
 * Assistant 12 registered (taking CRM's place), then another trigger's liveness probe of its URL
 * with the registered secret, `query` overriding the URL's parameters: webhook()'s result and answer.
 */
export async function probeRegistered(query: IDataObject = {}) {
	service([assistant(12, { inbound_webhook_url: CRM })]);
	const { context, staticData } = hook({ parameters: inboundParams() });
	await activate(context);
	const ctx = createWebhookContext({
		parameters: inboundParams(),
		staticData,
		query: { assistant_id: '12', secret: secretOf(staticData), ...query },
		headers: { 'x-voice-chat-assistant-probe': '1' },
		body: {},
	});
	const result = await trigger.webhook.call(ctx.context);
	return { result, response: ctx.response };
}

export function ourUrl(staticData: IDataObject, id = 12, base = PRODUCTION_URL): string {
	return `${base}?assistant_id=${id}&secret=${secretOf(staticData, id)}`;
}
