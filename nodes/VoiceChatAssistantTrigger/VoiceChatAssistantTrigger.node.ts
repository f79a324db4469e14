import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { downloadRecording, recordingUrlOfCall } from '../VoiceChatAssistant/transport/recording';

import { searchAssistants } from '../VoiceChatAssistant/methods/listSearch';
import { whenCredentialChosen } from '../VoiceChatAssistant/methods/credentialGuard';
import { answer, asId, parsePayload, queryValue, statusAllowed, toItem } from './core/payload';
import { CATCH_UP_KEY, rememberDelivered, withCaughtUp } from './calls/catchUp';
import { checkExists, create, remove } from './calls/lifecycle';
import { startHeartbeat } from './calls/heartbeat';
import { APP_DESCRIPTION } from '../VoiceChatAssistant/descriptions';
import { readToolRegistrations } from './midCallTool/midCallTool';
import { toolRequest } from './midCallTool/toolRequest';
import { triggerProperties } from './description';
import { toolCheckExists, toolCreate, toolRemove } from './midCallTool/toolLifecycle';
import { PROBE_HEADER } from './calls/ownership';
import { probeAnswer } from './calls/probeAnswer';
import { confirmUnverified } from './calls/unverifiedPost';
import { webhookSecret, safeEqual } from './core/secrets';
import { deliveryKey, finish, inFlight, remember, seen, start } from './core/replays';
import {
	WHATSAPP_STATUS,
	activateWhatsappStatus,
	whatsappStatusRequest,
} from './whatsapp/whatsappStatus';
import { testSigningSecret } from './whatsapp/whatsappSecret';
import { readEvent, readRegistration } from './calls/registration';
import { CONVERSATION_ENDED, INBOUND, MID_CALL_TOOL, readAssistantIds } from './core/events';
import type { RegisteredAssistant, Registration } from './calls/registration';

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
			'={{$parameter["event"] === "callCompleted" ? "Call completed (post-call webhook)" : $parameter["event"] === "conversationEnded" ? "Chat ended" : $parameter["event"] === "midCallTool" ? "Mid-call tool " + $parameter["toolName"] : $parameter["event"] === "whatsappMessageStatus" ? "WhatsApp message status" : "Inbound call completed"}}',
		// n8n's node panel shows the events of this trigger under the action node's app, with this
		// description as the app's: it is the action node's, so the app reads the same everywhere
		description: APP_DESCRIPTION,
		defaults: { name: 'Voice Chat Assistant Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'voiceChatAssistantApi', required: true },
			{
				// the WhatsApp sender's signing secret (whatsappSecret.ts); the literals are what n8n's lint reads
				name: 'voiceChatAssistantWhatsAppSigningApi',
				required: true,
				displayOptions: { show: { event: ['whatsappMessageStatus'] } },
				testedBy: 'whatsappSigningSecretTest',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: '={{$parameter["responseMode"]}}',
				// "Immediately" answers with what webhook() gives as its response ({"received": true});
				// the modes that wait answer with the first item of the last node
				responseData: '={{$parameter["responseMode"] === "onReceived" ? "" : "firstEntryJson"}}',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = {
		listSearch: whenCredentialChosen.listSearch({ searchAssistants }),
		credentialTest: { whatsappSigningSecretTest: testSigningSecret },
	};

	webhookMethods = {
		default: {
			/** Whether the watched assistants still send their calls to this trigger (asks the service). */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (isToolEvent(this)) return await toolCheckExists(this);
				// set up in the dashboard: nothing to ask the service; create checks the form
				if (isWhatsappEvent(this)) return false;
				return await checkExists(this);
			},
			/** Registers this trigger's URL, saving what each assistant posted to before. */
			async create(this: IHookFunctions): Promise<boolean> {
				if (isToolEvent(this)) return await toolCreate(this);
				if (isWhatsappEvent(this)) {
					// nothing to register: the form and the secret are checked, so a missing one fails activation
					await activateWhatsappStatus(this);
					return true;
				}
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

	/**
	 * The heartbeat (calls/heartbeat.ts): n8n starts it on the process that runs triggers, at
	 * every activation and start; it catches up missed calls with no delivery.
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startHeartbeat(this);
	}

	/**
	 * The run of the items webhook() or the heartbeat gave: they pass as they are. n8n runs a
	 * node's execute() before its trigger() in a run, so a test delivery is not taken for a
	 * manual start of the heartbeat.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		// a delivered call whose answer is the workflow's: remembered, saved when the run ends
		rememberDelivered(this, items);
		return [items];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// a mid-call tool request: its own secret header, answered by the workflow
		if (isToolEvent(this)) return toolRequest(this);
		// a WhatsApp message status: signed by the service, verified over the raw body
		if (isWhatsappEvent(this)) return await whatsappStatusRequest(this);
		const query = this.getQueryData();
		const registration = readRegistration(this.getWorkflowStaticData('node'));

		// another trigger of this package on this n8n asking whether this URL is live (starts nothing)
		const headers = this.getHeaderData() as IDataObject;
		if (headers[PROBE_HEADER] !== undefined) {
			const entry = await authenticated(this, registration, query);
			if (!entry) return answer(this, 404, { message: 'Not registered' });
			// what it would give back goes sealed: the answer shows no URL (calls/probeAnswer.ts)
			return answer(this, 200, await probeAnswer(this, entry));
		}

		// the assistant the delivery names must be a registered one, with its own secret
		const verified = this.getNodeParameter('verifySecret', true) !== false;
		const named = asId(queryValue(query, 'assistant_id'));
		if (verified) {
			if (!(await authenticated(this, registration, query))) {
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

		// a delivery repeated (or arriving again while its item is built) starts nothing; a post
		// without the assistant's secret (Verify Secret off) has its own memory, so it can
		// never make the service's delivery of that call a duplicate
		const genuine = verified || (await authenticated(this, registration, query)) !== undefined;
		const manual = this.getMode() === 'manual';
		// a call posted without its assistant's secret starts only a call the service lists
		let confirmed: number | undefined;
		if (!genuine && !manual && event !== CONVERSATION_ENDED) {
			const watched = registration ? registration.assistants.map((a) => a.id) : safeIds(this);
			const confirmation = await confirmUnverified(this, payload, named, watched);
			if ('refused' in confirmation) return answer(this, 401, { message: confirmation.refused });
			confirmed = confirmation.assistantId;
		}
		const scope = `${this.getWorkflow().id}|${this.getNode().id}${genuine ? '' : '|unverified'}`;
		const key = manual ? undefined : deliveryKey(scope, event, payload);
		if (key !== undefined && (seen(key) || inFlight(key))) {
			return answer(this, 200, { received: true, duplicate: true });
		}
		let assistantId = confirmed ?? (verified ? named : asId(named ?? payload.assistant_id));
		if (assistantId === null) {
			const watched = registration ? registration.assistants.map((a) => a.id) : safeIds(this);
			if (watched.length === 1) assistantId = watched[0];
		}
		const item: INodeExecutionData = { json: toItem(payload, event, assistantId) };
		const immediately = this.getNodeParameter('responseMode', 'onReceived') === 'onReceived';
		const withRecording = event !== CONVERSATION_ENDED && options.downloadRecording === true;
		// a test delivery ("Listen for test event") is answered marked as one: the call list then shows
		// that no production workflow got the call, and an active workflow's heartbeat starts it there too
		const received: IDataObject = manual
			? { received: true, test_listener: true }
			: { received: true };
		// with a recording to fetch, the service gets its answer first and waits for nothing
		if (immediately && withRecording) this.getResponseObject().status(200).json(received);
		// while the item is built, a catch-up running for another delivery leaves this call to it
		if (key !== undefined) start(key);
		try {
			if (withRecording) {
				await attachRecording(this, item, payload, verified ? assistantId : null);
			}
			// the item is built: from here on a repeat of this delivery is a replay
			if (key !== undefined) remember(key);
		} finally {
			if (key !== undefined) finish(key);
		}
		// calls that ended while n8n could not receive start with this one
		const staticData = this.getWorkflowStaticData('node');
		const memory = staticData[CATCH_UP_KEY];
		const items = await withCaughtUp(this, item, {
			event,
			assistantId,
			payload,
			registration,
			options,
			verified: genuine,
		});

		const workflowData = [items];
		if (manual) {
			if (immediately && withRecording) return { noWebhookResponse: true, workflowData };
			return answer(this, 200, received, workflowData);
		}
		if (immediately) {
			if (withRecording) return { noWebhookResponse: true, workflowData };
			// n8n saves what webhook() wrote only when the answer comes before the run (the run resets
			// the change flag): a delivery that moved the catch-up's memory is answered now
			if (staticData[CATCH_UP_KEY] !== memory)
				return answer(this, 200, { received: true }, workflowData);
			// otherwise n8n answers once it has created the run (n8n 2.x; queued, in queue mode): a
			// process that stops before leaves the call unanswered at the service, for a catch-up
			return { workflowData, webhookResponse: { received: true } };
		}
		// n8n saves what webhook() wrote only when the answer comes before the run (the run resets the
		// change flag): a delivery that brings caught-up calls is answered at once, so that n8n keeps
		// the note that they started and a restart never starts them again
		const caughtUp = items.length - 1;
		if (caughtUp > 0)
			return answer(this, 200, { received: true, caught_up: caughtUp }, workflowData);
		return { workflowData };
	}
}

/**
 * The registered assistant a delivery names (`assistant_id`) when the
 * delivery carries that assistant's secret (compared in constant time), else
 * undefined. The secret is the one stored with the registration or the one
 * this node derives for a watched assistant (core/secrets.ts): a stale save of the
 * static data, or a publish that registered again, does not turn a delivery
 * away. The stored secret is compared first, so a delivery reads the
 * credential only when it does not match.
 */
async function authenticated(
	ctx: IWebhookFunctions,
	registration: Registration | undefined,
	query: unknown,
): Promise<RegisteredAssistant | undefined> {
	const id = asId(queryValue(query, 'assistant_id'));
	const secret = queryValue(query, 'secret');
	if (typeof id !== 'number' || secret === undefined || secret === '') return undefined;
	const entry = registration?.assistants.find((a) => a.id === id);
	if (entry && safeEqual(secret, entry.secret)) return entry;
	if (!entry && !safeIds(ctx).includes(id)) return undefined;
	const derived = await webhookSecret(ctx, readEvent(ctx), id);
	if (derived === undefined || !safeEqual(secret, derived)) return undefined;
	return entry ?? { id, url: '', secret: derived, giveBack: [] };
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

/** Whether the node receives the WhatsApp message statuses of a sender (set up in the dashboard). */
function isWhatsappEvent(ctx: Pick<IHookFunctions, 'getNodeParameter'>): boolean {
	return ctx.getNodeParameter('event', INBOUND) === WHATSAPP_STATUS;
}

/** The watched assistants from the parameters, or none when they cannot be read. */
function safeIds(ctx: IWebhookFunctions): number[] {
	try {
		return readAssistantIds(ctx);
	} catch {
		return [];
	}
}
