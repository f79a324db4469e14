import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { downloadRecording, recordingUrlOfCall } from '../VoiceChatAssistant/transport/recording';

import {
	APP_DESCRIPTION,
	CALL_STATUS_OPTIONS,
	assistantLocator,
} from '../VoiceChatAssistant/descriptions';
import { searchAssistants } from '../VoiceChatAssistant/methods/listSearch';
import { whenCredentialChosen } from '../VoiceChatAssistant/methods/credentialGuard';
import { asId, parsePayload, queryValue, statusAllowed, toItem } from './payload';
import { withCaughtUp } from './catchUp';
import { checkExists, create, remove } from './lifecycle';
import { midCallToolProperties, readToolRegistrations, toolRequest } from './midCallTool';
import { toolCheckExists, toolCreate, toolRemove } from './toolLifecycle';
import { PROBE_ANSWER_KEY, PROBE_HEADER } from './ownership';
import { deliveryKey, finish, remember, seen, start } from './replays';
import {
	CONVERSATION_ENDED,
	INBOUND,
	MID_CALL_TOOL,
	POST_CALL,
	copyTarget,
	readAssistantIds,
	readEvent,
	readRegistration,
	safeEqual,
} from './registration';
import type { RegisteredAssistant, Registration } from './registration';

/** Writes the answer to the service and tells n8n that it is sent. */
function answer(
	ctx: IWebhookFunctions,
	statusCode: number,
	body: IDataObject,
	workflowData?: IWebhookResponseData['workflowData'],
): IWebhookResponseData {
	ctx.getResponseObject().status(statusCode).json(body);
	return workflowData ? { noWebhookResponse: true, workflowData } : { noWebhookResponse: true };
}

export class VoiceChatAssistantTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Voice Chat Assistant Trigger',
		name: 'voiceChatAssistantTrigger',
		icon: {
			light: 'file:../../icons/voiceChatAssistant.svg',
			dark: 'file:../../icons/voiceChatAssistant.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["event"] === "callCompleted" ? "Call completed (post-call webhook)" : $parameter["event"] === "conversationEnded" ? "Chat ended" : $parameter["event"] === "midCallTool" ? "Mid-call tool " + $parameter["toolName"] : "Inbound call completed"}}',
		// n8n's node panel shows the events of this trigger under the action node's app, with this
		// description as the app's: it is the action node's, so the app reads the same everywhere
		description: APP_DESCRIPTION,
		defaults: { name: 'Voice Chat Assistant Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'voiceChatAssistantApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: '={{$parameter["responseMode"]}}',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'The service keeps one webhook URL per assistant. While this workflow is active (or listening for a test event) the assistant sends its calls here; afterwards it gets back the URL it had before, unless that URL no longer answers.',
				name: 'oneUrlPerAssistantNotice',
				type: 'notice',
				default: '',
				displayOptions: { hide: { event: [MID_CALL_TOOL] } },
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Inbound Call Completed',
						value: INBOUND,
						action: 'On inbound call completed',
						description:
							"An inbound call of the assistant ended (the service's inbound webhook, enabled per assistant)",
					},
					{
						name: 'Conversation Ended (Chat)',
						value: CONVERSATION_ENDED,
						action: 'On conversation ended (chat)',
						description:
							"A widget or WhatsApp chat of the assistant ended after its inactivity timeout; the item holds the transcript (the assistant's conversation-ended webhook)",
					},
					{
						name: 'Call Completed (Post-Call Webhook)',
						value: POST_CALL,
						action: 'On call completed (post-call webhook)',
						description:
							"Any call of the assistant ended: inbound, outbound and campaign calls (the assistant's post-call webhook)",
					},
					{
						name: 'Mid-Call Tool Request',
						value: MID_CALL_TOOL,
						action: 'On mid-call tool request',
						description:
							'During a call the assistant asks this workflow (a mid-call tool the node registers) and speaks its answer',
					},
				],
				default: INBOUND,
			},
			{
				...assistantLocator,
				description:
					'The assistant whose calls start this workflow. Pick it from the list or give its numeric ID.',
			},
			{
				displayName: 'Additional Assistants',
				name: 'additionalAssistants',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Assistant',
				default: {},
				description:
					'More assistants whose calls start this workflow; the item says which one in "assistant_id"',
				options: [
					{
						displayName: 'Assistant',
						name: 'assistant',
						values: [
							{
								...assistantLocator,
								description: 'Pick the assistant from the list or give its numeric ID',
							},
						],
					},
				],
			},
			{
				displayName: 'If the Assistant Already Has a Webhook',
				name: 'existingWebhook',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Take Over and Give Back',
						value: 'takeOverAndGiveBack',
						description:
							'Receive the calls while this workflow is active; on deactivation the assistant gets its previous URL and settings back (another workflow only while it is still active)',
					},
					{
						name: 'Fail Activation',
						value: 'fail',
						description: 'Refuse to activate, naming the host that receives the calls today',
					},
					{
						name: 'Take Over',
						value: 'takeOver',
						description:
							'Replace the previous URL for good; on deactivation the webhook is switched off',
					},
				],
				default: 'takeOverAndGiveBack',
				description:
					'What to do when the assistant already sends its calls to another URL (read from the service before registering)',
				displayOptions: { hide: { event: [MID_CALL_TOOL] } },
			},
			{
				displayName: 'Response Mode',
				name: 'responseMode',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Immediately',
						value: 'onReceived',
						description: 'Answer 200 {"received": true} as soon as the call data arrives',
					},
					{
						name: 'When Last Node Finishes',
						value: 'lastNode',
						description:
							'Answer with the first item of the last node; the service stores it as the call\'s "webhook_response"',
					},
					{
						name: "Using 'Respond to Webhook' Node",
						value: 'responseNode',
						description:
							'Answer with what a Respond to Webhook node returns; the service stores it as the call\'s "webhook_response"',
					},
				],
				default: 'onReceived',
				description: 'When and how to answer the service',
				displayOptions: { hide: { event: [MID_CALL_TOOL] } },
			},
			...midCallToolProperties,
			{
				displayName:
					'Add a Respond to Webhook node to the workflow. n8n\'s Respond to Webhook node from version 1.1 on refuses to run unless n8n\'s own Webhook, Form, Chat or Wait node comes before it; if it reports "No Webhook node found in the workflow", choose "When Last Node Finishes" instead.',
				name: 'responseNodeNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { responseMode: ['responseNode'] } },
			},
			{
				displayName: 'Verify Secret',
				name: 'verifySecret',
				type: 'boolean',
				default: true,
				description:
					"Whether to refuse (HTTP 401) calls of the webhook URL that lack the random secret this node adds to the URL it registers for each assistant. The service signs nothing, so the secret is what tells its calls from anyone else's.",
				displayOptions: { hide: { event: [MID_CALL_TOOL] } },
			},
			{
				displayName:
					'Without the secret check, anyone who knows the webhook URL can start this workflow with made-up call data, and "Download Recording" cannot be used. Turn it off only when something between the service and n8n strips query strings.',
				name: 'verifySecretOffNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { verifySecret: [false] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				displayOptions: { hide: { event: [MID_CALL_TOOL] } },
				options: [
					{
						displayName: 'Call Statuses',
						name: 'callStatuses',
						type: 'multiOptions',
						options: CALL_STATUS_OPTIONS,
						default: [],
						description:
							'Start the workflow only for calls with one of these statuses (empty: every status). Other calls are answered 200 and start nothing.',
						displayOptions: { show: { '/event': [INBOUND, POST_CALL] } },
					},
					{
						displayName: 'Download Recording',
						name: 'downloadRecording',
						type: 'boolean',
						default: false,
						description:
							'Whether to download the call recording (when the call has one) into the binary property "data" of the item. The recording is read from the service for the call, never from the address in the posted data, and needs "Verify Secret" on. When it cannot be had, the item comes without it and with "recording_error".',
						displayOptions: { show: { '/event': [INBOUND, POST_CALL] } },
					},
					{
						displayName: 'Include Recording',
						name: 'includeRecording',
						type: 'boolean',
						default: true,
						description:
							'Whether the service puts the recording URL ("recording_url") into the call data',
						displayOptions: { show: { '/event': [POST_CALL] } },
					},
					{
						displayName: 'Only Completed Calls',
						name: 'onlyCompletedCalls',
						type: 'boolean',
						default: true,
						description:
							'Whether the service skips failed and unanswered calls (it sends nothing for them)',
						displayOptions: { show: { '/event': [POST_CALL] } },
					},
				],
			},
		],
	};

	methods = {
		listSearch: whenCredentialChosen.listSearch({ searchAssistants }),
	};

	webhookMethods = {
		default: {
			/** Whether the watched assistants still send their calls to this trigger (asks the service). */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (isToolEvent(this)) return await toolCheckExists(this);
				return await checkExists(this);
			},
			/** Registers this trigger's URL, saving what each assistant posted to before. */
			async create(this: IHookFunctions): Promise<boolean> {
				if (isToolEvent(this)) return await toolCreate(this);
				return await create(this);
			},
			/** Gives each assistant that still holds this trigger's URL its previous webhook back. */
			async delete(this: IHookFunctions): Promise<boolean> {
				// what either kind of event left registered is removed, also after the event was changed
				const staticData = this.getWorkflowStaticData('node');
				const tool = isToolEvent(this);
				let done = true;
				if (tool || readToolRegistrations(staticData).length > 0)
					done = (await toolRemove(this)) && done;
				if (!tool || readRegistration(staticData)) done = (await remove(this)) && done;
				return done;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// a mid-call tool request: its own secret header, answered by the workflow
		if (isToolEvent(this)) return toolRequest(this);
		const query = this.getQueryData();
		const registration = readRegistration(this.getWorkflowStaticData('node'));

		// another trigger of this package on this n8n asking whether this URL is live (starts nothing)
		const headers = this.getHeaderData() as IDataObject;
		if (headers[PROBE_HEADER] !== undefined) {
			const entry = authenticated(registration, query);
			if (!entry) return answer(this, 404, { message: 'Not registered' });
			return answer(this, 200, {
				[PROBE_ANSWER_KEY]: 'live',
				giveBack: entry.giveBack.map(copyTarget),
			});
		}

		// the assistant the delivery names must be a registered one, with its own secret
		const verified = this.getNodeParameter('verifySecret', true) !== false;
		const named = asId(queryValue(query, 'assistant_id'));
		if (verified) {
			if (!authenticated(registration, query)) {
				return answer(this, 401, { message: 'Unauthorized' });
			}
		} else if (named !== null) {
			const watched = registration ? registration.assistants.map((a) => a.id) : safeIds(this);
			if (!watched.includes(named as number)) {
				return answer(this, 401, { message: 'Unauthorized' });
			}
		}

		const request = this.getRequestObject() as unknown as { rawBody?: unknown };
		const payload = parsePayload(this.getBodyData() as unknown, request.rawBody);
		if (!payload) {
			return answer(this, 400, {
				message: 'Bad request: the body must be a JSON object with the call data',
			});
		}

		const event = registration?.event ?? readEvent(this);
		const options = this.getNodeParameter('options', {}) as IDataObject;
		if (event !== CONVERSATION_ENDED && !statusAllowed(payload, options.callStatuses)) {
			return answer(this, 200, {
				received: true,
				ignored: true,
				reason: `call status ${JSON.stringify(payload.status ?? null)} is not one this workflow listens to`,
			});
		}

		// the service delivers again after 30, 60 and 120 s when it missed the answer: one execution per delivery
		const key =
			this.getMode() === 'manual'
				? undefined
				: deliveryKey(`${this.getWorkflow().id}|${this.getNode().id}`, event, payload);
		if (key !== undefined && seen(key)) {
			return answer(this, 200, { received: true, duplicate: true });
		}
		let assistantId = verified ? named : asId(named ?? payload.assistant_id);
		if (assistantId === null) {
			const watched = registration ? registration.assistants.map((a) => a.id) : safeIds(this);
			if (watched.length === 1) assistantId = watched[0];
		}
		const item: INodeExecutionData = { json: toItem(payload, event, assistantId) };
		const immediately = this.getNodeParameter('responseMode', 'onReceived') === 'onReceived';
		// the service gets its answer first; the recording is fetched while it waits for nothing
		if (immediately) this.getResponseObject().status(200).json({ received: true });
		// while the item is built, a catch-up running for another delivery leaves this call to it
		if (key !== undefined) start(key);
		try {
			if (event !== CONVERSATION_ENDED && options.downloadRecording === true) {
				await attachRecording(this, item, payload, verified ? assistantId : null);
			}
			// the item is built: from here on a repeat of this delivery is a replay
			if (key !== undefined) remember(key);
		} finally {
			if (key !== undefined) finish(key);
		}
		// calls that ended while n8n could not receive start with this one
		const items = await withCaughtUp(this, item, {
			event,
			assistantId,
			payload,
			registration,
			options,
		});

		const workflowData = [items];
		return immediately ? { noWebhookResponse: true, workflowData } : { workflowData };
	}
}

/**
 * The registered assistant a delivery names (`assistant_id`) when the
 * delivery carries that assistant's secret (compared in constant time), else
 * undefined.
 */
function authenticated(
	registration: Registration | undefined,
	query: unknown,
): RegisteredAssistant | undefined {
	const id = asId(queryValue(query, 'assistant_id'));
	const secret = queryValue(query, 'secret');
	if (!registration || typeof id !== 'number' || secret === undefined) return undefined;
	const entry = registration.assistants.find((a) => a.id === id);
	return entry && safeEqual(secret, entry.secret) ? entry : undefined;
}

/**
 * Downloads the call's recording into the item's binary "data". The
 * recording's address is read from the service's call list for the verified
 * assistant, never taken from the post. What fails does not hold the event
 * back: the item goes on without the binary and with `recording_error`.
 */
async function attachRecording(
	ctx: IWebhookFunctions,
	item: INodeExecutionData,
	payload: IDataObject,
	assistantId: number | string | null,
): Promise<void> {
	// the service says the call has no recording
	if (
		'recording_url' in payload &&
		(payload.recording_url === null || payload.recording_url === '')
	)
		return;
	const callId = payload.id ?? payload.call_id;
	const label =
		typeof callId === 'number' || typeof callId === 'string' ? String(callId) : 'without an id';
	try {
		if (typeof assistantId !== 'number') {
			throw new NodeOperationError(
				ctx.getNode(),
				'The recording is downloaded only for deliveries with a verified secret (turn "Verify Secret" on)',
			);
		}
		if (
			typeof callId !== 'number' &&
			!(typeof callId === 'string' && /^\d+$/.test(callId.trim()))
		) {
			throw new NodeOperationError(
				ctx.getNode(),
				'The call data has no call id ("id"), so its recording cannot be looked up',
			);
		}
		const url = await recordingUrlOfCall(ctx, {
			assistantId,
			callId: String(callId).trim(),
			customerPhone: payload.customer_phone,
			when: payload.created_at ?? payload.finished_at,
		});
		item.binary = { data: await downloadRecording(ctx, url, callId) };
	} catch (error) {
		const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
		item.json.recording_error = message;
		ctx.logger.warn(
			`Voice Chat Assistant Trigger: call ${label} goes on without its recording: ${message}`,
		);
	}
}

/** Whether the node serves a mid-call tool rather than a webhook of the assistants. */
function isToolEvent(ctx: Pick<IHookFunctions, 'getNodeParameter'>): boolean {
	return ctx.getNodeParameter('event', INBOUND) === MID_CALL_TOOL;
}

/** The watched assistants from the parameters, or none when they cannot be read. */
function safeIds(ctx: IWebhookFunctions): number[] {
	try {
		return readAssistantIds(ctx);
	} catch {
		return [];
	}
}
