/**
 * A webhook trigger already registered, for the tests of what it does with a
 * delivery: the node's parameters watching the given assistants, the static
 * data create() leaves for them (each assistant's URL with its secret), and
 * the webhook context of a delivery from one of them. A test file states what
 * differs (the event, the secrets, the payload); each call gives fresh
 * objects, so a delivery's changes to its static data stay its own.
 * For the tests that register it: the service's assistant endpoints behind
 * nock (`assistantService`), which each family extends with its own routes.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { VoiceChatAssistantTrigger } from '../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';

import { TEST_API_KEY, TEST_BASE_URL } from './context';
import {
	PRODUCTION_URL,
	answerAsN8n,
	createHookContext,
	createWebhookContext,
	firstOutput,
	locator,
} from './hookContext';
import type { HookContextOptions, WebhookRequestOptions } from './hookContext';

export const trigger = new VoiceChatAssistantTrigger();
/** checkExists, create and delete. */
export const triggerMethods = trigger.webhookMethods.default;

export interface RegisteredTriggerOptions {
	/** The event of the parameters and of the registration (default inboundCallCompleted). */
	event?: string;
	/**
	 * The watched assistants: the first is the node's assistant, the others its additional ones
	 * (default 12 and 34). A delivery comes from the last one unless the test says otherwise.
	 */
	assistants?: number[];
	/** The secret registered in each assistant's URL (none where the tests let create() make them). */
	secrets?: Record<number, string>;
	/** The payload a delivery carries unless the test gives another. */
	payload?: unknown;
	/** Parameters the file sets for all its tests, beside the ones every trigger has. */
	parameters?: IDataObject;
	/** The static data a delivery loads unless the test gives some (default: the registration alone). */
	loaded?: () => IDataObject;
}

export type Delivery = Partial<WebhookRequestOptions>;

export function registeredTrigger(options: RegisteredTriggerOptions) {
	const event = options.event ?? 'inboundCallCompleted';
	const ids = options.assistants ?? [12, 34];
	const deliveredBy = ids[ids.length - 1];
	const secrets = options.secrets ?? {};

	/** The static data as create() leaves it for `event` and the assistants `watched`. */
	function staticData(registeredEvent = event, watched: number[] = ids): IDataObject {
		const registration: IDataObject = {
			event: registeredEvent,
			webhookUrl: PRODUCTION_URL,
			assistants: watched.map((id) => ({
				id,
				url: `${PRODUCTION_URL}?assistant_id=${id}&secret=${secrets[id]}`,
				secret: secrets[id],
				giveBack: [],
			})),
		};
		if (registeredEvent === 'callCompleted') {
			registration.settings = {
				send_webhook_only_on_completed: true,
				include_recording_in_webhook: true,
			};
		}
		return { registration };
	}

	/** The node's parameters watching the assistants, with `extra` over them. */
	function parameters(extra: IDataObject = {}): IDataObject {
		return {
			event,
			assistantId: locator(ids[0]),
			additionalAssistants:
				ids.length > 1
					? { assistant: ids.slice(1).map((id) => ({ assistantId: locator(id) })) }
					: {},
			responseMode: 'onReceived',
			verifySecret: true,
			options: {},
			...options.parameters,
			...extra,
		};
	}

	/** The webhook context of one delivery: the default assistant, payload and static data, `request` over them. */
	function webhookContext(request: Delivery = {}) {
		return createWebhookContext({
			staticData: options.loaded?.() ?? staticData(),
			query: { assistant_id: String(deliveredBy), secret: secrets[deliveredBy] },
			body: options.payload,
			...request,
			parameters: request.parameters ?? parameters(),
		});
	}

	/** One delivery run through webhook(): its context, the result and the items it started. */
	async function deliver(request: Delivery = {}) {
		const ctx = webhookContext(request);
		const result = await trigger.webhook.call(ctx.context);
		const mode = (request.parameters ?? parameters()).responseMode as string | undefined;
		answerAsN8n(result, ctx.response, mode);
		return { ...ctx, result, items: firstOutput(result.workflowData) };
	}

	/** The hook context of an activation or a removal, with the file's parameters unless given. */
	function hookContext(hook: Partial<HookContextOptions> = {}) {
		return createHookContext({ ...hook, parameters: hook.parameters ?? parameters() });
	}

	return { staticData, parameters, webhookContext, deliver, hookContext };
}

/** The paginated assistant list, read by create() and checkExists(). */
export const ASSISTANT_LIST = '/api/user/assistants/get';

/**
 * The service's assistant endpoints, for the tests' key only, kept as state
 * in `assistants`: the list (2 a page, so paging is used; sorted by id) and
 * the update (merging the body into the assistant). Returns the persisted
 * nock scope for the family's own routes.
 */
export function assistantService<A extends { id: number }>(assistants: A[]) {
	return nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
		.persist()
		.get(ASSISTANT_LIST)
		.query(true)
		.reply((uri) => {
			const page = Number(new URL(uri, TEST_BASE_URL).searchParams.get('page') ?? 1);
			const sorted = [...assistants].sort((a, b) => a.id - b.id);
			const last = Math.max(1, Math.ceil(sorted.length / 2));
			return [
				200,
				{
					current_page: page,
					data: sorted.slice((page - 1) * 2, page * 2),
					last_page: last,
					next_page_url: page < last ? `${TEST_BASE_URL}${ASSISTANT_LIST}?page=${page + 1}` : null,
				},
			];
		})
		.put(/^\/api\/user\/assistant\/\d+$/)
		.reply((uri, body) => {
			const a = assistants.find((x) => x.id === Number(uri.split('/').pop()));
			if (!a) return [404, { message: 'Assistant not found' }];
			Object.assign(a, body as IDataObject);
			return [200, { message: 'Assistant updated successfully', data: { id: a.id } }];
		});
}
