import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listedCall, recordingInto } from '../../VoiceChatAssistant/transport/recording';
import type { CallLookup } from '../../VoiceChatAssistant/transport/recording';
import { CALL_EVENTS } from '../core/events';
import {
	asId,
	deliveryKey,
	parsePayload,
	queryValue,
	statusAllowed,
	toItem,
} from '../core/payload';
import { finish, inFlight, remember, seen, start } from '../core/replays';
import { withCaughtUp } from './catchUp';
import { CATCH_UP_KEY } from './catchUpState';
import { PROBE_HEADER, probeAnswer } from './ownership';
import { readPoster } from './world';
import type { Poster } from './world';

const LOG = 'Voice Chat Assistant Trigger:';

/** A post of the service, read once at its start (readPost): whose it is (Poster), and what it says. */
interface Post extends Poster {
	options: IDataObject;
	/** A probe of another trigger of this package on this n8n (it starts nothing). */
	probe: boolean;
	/** Verify Secret. */
	verified: boolean;
	manual: boolean;
	/** The assistant the post names (`assistant_id`), or null. */
	named: number | string | null;
	/** The assistant the post claims: the one it names, else its data's `assistant_id` (or null). */
	claimed: number | string | null;
	/** The call the post is about (its data's `id`, else `call_id`), or null. */
	callId: number | string | null;
	/** The call or chat data, or undefined when the body is not a JSON object. */
	payload: IDataObject | undefined;
}

/**
 * What a post gets: an answer written as given (its status and body, with the items to start),
 * or what n8n is to answer itself (`n8n`). callDelivery writes it, in one place.
 */
type Reply =
	| { status: number; body: IDataObject; workflowData?: IWebhookResponseData['workflowData'] }
	| { n8n: IWebhookResponseData };

async function readPost(ctx: IWebhookFunctions): Promise<Post> {
	const query = ctx.getQueryData();
	const request = ctx.getRequestObject() as unknown as { rawBody?: unknown };
	const payload = parsePayload(ctx.getBodyData() as unknown, request.rawBody);
	const named = asId(queryValue(query, 'assistant_id'));
	const secret = queryValue(query, 'secret');
	const claimed = asId(named ?? payload?.assistant_id);
	const callId = asId(payload?.id ?? payload?.call_id);
	const poster = await readPoster(ctx, { named, secret });
	return {
		...poster,
		options: ctx.getNodeParameter('options', {}) as IDataObject,
		probe: (ctx.getHeaderData() as IDataObject)[PROBE_HEADER] !== undefined,
		verified: ctx.getNodeParameter('verifySecret', true) !== false,
		manual: ctx.getMode() === 'manual',
		named,
		claimed,
		callId,
		payload,
	};
}

/**
 * What a post gets before it starts anything: a probe's answer, a refusal (no secret of a
 * registered assistant, an assistant not watched, a body that is no call data) or "ignored" (a
 * call status the workflow does not listen to); undefined when it goes on.
 */
function screen(post: Post): 'probe' | Reply | undefined {
	if (post.probe) {
		return post.entry ? 'probe' : { status: 404, body: { message: 'Not registered' } };
	}
	// the assistant the delivery names must be a registered one, with its own secret
	const unauthorized = { status: 401, body: { message: 'Unauthorized' } };
	if (post.verified && !post.entry) return unauthorized;
	if (!post.verified && post.named !== null && !post.watched().includes(post.named as number)) {
		return unauthorized;
	}
	const { payload, event, options } = post;
	if (!payload) {
		return {
			status: 400,
			body: { message: 'Bad request: the body must be a JSON object with the call data' },
		};
	}
	if (CALL_EVENTS[event].calls && !statusAllowed(payload, options.callStatuses)) {
		const reason = `call status ${JSON.stringify(payload.status ?? null)} is not one this workflow listens to`;
		return { status: 200, body: { received: true, ignored: true, reason } };
	}
	return undefined;
}

/**
 * A post of the service for a call or chat event: read once, then screened (a probe of another
 * trigger of this package, a refusal, a status not listened to), then delivered: the item is
 * built (with its recording), repeats start nothing, missed calls come with it, and the answer
 * follows the Response Mode.
 */
export async function callDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const post = await readPost(ctx);
	const early = screen(post);
	// what a live trigger would give back goes sealed: the answer shows no URL (ownership.ts)
	const reply =
		early === undefined
			? await deliver(ctx, post, post.payload!)
			: early === 'probe'
				? { status: 200, body: probeAnswer(post.entry!, await post.authorization()) }
				: early;
	if ('n8n' in reply) return reply.n8n;
	ctx.getResponseObject().status(reply.status).json(reply.body);
	const { workflowData } = reply;
	return workflowData ? { noWebhookResponse: true, workflowData } : { noWebhookResponse: true };
}

/** A post that goes on: its call started once (with missed calls and its recording), and its reply. */
async function deliver(ctx: IWebhookFunctions, post: Post, payload: IDataObject): Promise<Reply> {
	const { registration, event, options, verified, named, claimed, callId, manual } = post;
	const { calls } = CALL_EVENTS[event];
	// a delivery repeated (or arriving again while its item is built) starts nothing; a post
	// without the assistant's secret (Verify Secret off) has its own memory, so it can
	// never make the service's delivery of that call a duplicate
	const genuine = verified || post.entry !== undefined;
	const withRecording = calls && options.downloadRecording === true;
	// the recording of a verified delivery's call is looked up in the service's call list, under
	// the registered assistant whose secret the post carries (the one it names)
	const recording = withRecording
		? recordingLookup(ctx, payload, callId, verified ? named : null)
		: undefined;
	// a call posted without its assistant's secret starts only a call the service lists
	let confirmed: number | undefined;
	if (!genuine && !manual && calls) {
		const confirmation = await confirmUnverified(ctx, payload, { callId, claimed }, post.watched());
		if ('refused' in confirmation) return { status: 401, body: { message: confirmation.refused } };
		confirmed = confirmation.assistantId;
	}
	const scope = `${ctx.getWorkflow().id}|${ctx.getNode().id}${genuine ? '' : '|unverified'}`;
	const key = manual ? undefined : deliveryKey(scope, event, payload);
	if (key !== undefined && (seen(key) || inFlight(key))) {
		return { status: 200, body: { received: true, duplicate: true } };
	}
	let assistantId = confirmed ?? (verified ? named : claimed);
	if (assistantId === null) {
		const watched = post.watched();
		if (watched.length === 1) assistantId = watched[0];
	}
	const item: INodeExecutionData = { json: toItem(payload, event, assistantId) };
	const immediately = ctx.getNodeParameter('responseMode', 'onReceived') === 'onReceived';
	// a test delivery ("Listen for test event") is answered marked as one: the call list then shows
	// that no production workflow got the call, and an active workflow's heartbeat starts it there too
	const received: IDataObject = manual
		? { received: true, test_listener: true }
		: { received: true };
	// with a recording to fetch, the service gets its answer first and waits for nothing
	if (immediately && withRecording) ctx.getResponseObject().status(200).json(received);
	// while the item is built, a catch-up running for another delivery leaves this call to it
	if (key !== undefined) start(key);
	try {
		if (recording) await recordingInto(ctx, item, recording, { callId, log: LOG });
		// the item is built: from here on a repeat of this delivery is a replay
		if (key !== undefined) remember(key);
	} finally {
		if (key !== undefined) finish(key);
	}
	// calls that ended while n8n could not receive start with this one (chats are not caught up)
	const staticData = ctx.getWorkflowStaticData('node');
	const memory = staticData[CATCH_UP_KEY];
	const items = calls
		? await withCaughtUp(ctx, item, {
				event,
				assistantId,
				payload,
				registration,
				options,
				verified: genuine,
			})
		: [item];

	const workflowData = [items];
	// answered already, before the recording was fetched
	if (immediately && withRecording) return { n8n: { noWebhookResponse: true, workflowData } };
	if (manual) return { status: 200, body: received, workflowData };
	if (immediately) {
		// n8n saves what webhook() wrote only when the answer comes before the run (the run resets
		// the change flag): a delivery that moved the catch-up's memory is answered now
		if (staticData[CATCH_UP_KEY] !== memory) return { status: 200, body: received, workflowData };
		// otherwise n8n answers once it has created the run (n8n 2.x; queued, in queue mode): a
		// process that stops before leaves the call unanswered at the service, for a catch-up
		return { n8n: { workflowData, webhookResponse: { received: true } } };
	}
	// n8n saves what webhook() wrote only when the answer comes before the run (the run resets the
	// change flag): a delivery that brings caught-up calls is answered at once, so that n8n keeps
	// the note that they started and a restart never starts them again
	const caughtUp = items.length - 1;
	if (caughtUp > 0) {
		return { status: 200, body: { received: true, caught_up: caughtUp }, workflowData };
	}
	return { n8n: { workflowData } };
}

/** At most this many watched assistants are asked for a post that names none of them. */
const MAX_ASKED_ASSISTANTS = 5;

type Confirmation = { assistantId: number } | { refused: string };

/**
 * A post of a call without its assistant's secret (Verify Secret off, behind a proxy that drops
 * query strings; or anyone who knows the URL): it starts the workflow only when the service lists
 * that call for a watched assistant, with the posted customer number, within a day of the posted
 * time (the call list, filtered as the recording's lookup is). So a made-up post starts nothing.
 * The assistant asked is the one the post claims (`claimed`), else each watched one (at most
 * MAX_ASKED_ASSISTANTS). A post the list does not show, or that cannot be checked, is refused
 * "Unauthorized": the service records that answer, so the heartbeat's catch-up starts a genuine
 * call later from the list (the service does not post it again).
 */
async function confirmUnverified(
	ctx: IWebhookFunctions,
	payload: IDataObject,
	{ callId, claimed }: { callId: number | string | null; claimed: number | string | null },
	watched: number[],
): Promise<Confirmation> {
	if (typeof callId !== 'number') {
		return { refused: 'Unauthorized: the post names no call ("id")' };
	}
	const asked =
		typeof claimed === 'number'
			? watched.filter((id) => id === claimed)
			: watched.slice(0, MAX_ASKED_ASSISTANTS);
	for (const assistantId of asked) {
		let call: IDataObject | undefined;
		try {
			call = await listedCall(ctx, {
				assistantId,
				callId,
				customerPhone: payload.customer_phone,
				when: payload.created_at ?? payload.finished_at,
			});
		} catch (error) {
			ctx.logger.warn(
				`${LOG} a post of call ${callId} without the assistant's secret could not be checked at the service (${(error as Error).message.split('\n')[0]}); it is refused, and the catch-up starts the call later if the service lists it`,
			);
			return { refused: 'Unauthorized: the call could not be checked at the service' };
		}
		if (call) return { assistantId };
	}
	ctx.logger.warn(
		`${LOG} a post of call ${callId} without the assistant's secret names no call the service lists for the watched assistant(s) ${asked.join(', ') || '(none)'}; it started nothing`,
	);
	return {
		refused: `Unauthorized: the service lists no call ${callId} of the watched assistant(s) with this customer number`,
	};
}

/**
 * Where the delivered call's recording is looked up: the service's call list for the verified
 * assistant, never an address taken from the post; an error saying why it cannot be (the item
 * then goes on with `recording_error`); undefined when the service says the call has none.
 */
function recordingLookup(
	ctx: IWebhookFunctions,
	payload: IDataObject,
	callId: number | string | null,
	assistantId: number | string | null,
): CallLookup | Error | undefined {
	if (
		'recording_url' in payload &&
		(payload.recording_url === null || payload.recording_url === '')
	)
		return undefined;
	if (typeof assistantId !== 'number') {
		return new NodeOperationError(
			ctx.getNode(),
			'The recording is downloaded only for deliveries with a verified secret (turn "Verify Secret" on)',
		);
	}
	if (typeof callId !== 'number') {
		return new NodeOperationError(
			ctx.getNode(),
			'The call data has no call id ("id"), so its recording cannot be looked up',
		);
	}
	return {
		assistantId,
		callId: String(callId),
		customerPhone: payload.customer_phone,
		when: payload.created_at ?? payload.finished_at,
	};
}
