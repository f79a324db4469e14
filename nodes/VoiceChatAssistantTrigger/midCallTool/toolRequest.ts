import { createHash } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { ToolParameterType } from '../../VoiceChatAssistant/descriptions';
import { isObject } from '../../VoiceChatAssistant/transport';
import { readDefinition, readToolRegistrations, SECRET_HEADER } from './midCallTool';
import type { ToolRegistration } from './midCallTool';
import { answer, parsePayload } from '../core/payload';
import { safeEqual, toolSecret } from '../core/secrets';

/**
 * How the "Mid-Call Tool Request" event answers the service's request during
 * a call: the secret header checked, the arguments read, one item for the
 * workflow.
 *
 * The assistant waits for the answer for the tool's timeout and then goes on
 * without it, while the workflow keeps running; the AI may then ask again
 * with the same arguments. The service sends no call id or request id with a
 * tool request (SPEC.md: the tool's headers and the arguments the AI
 * extracted), so the item carries what a workflow needs to make such a
 * repeat harmless: `answer_by`, the moment after which nobody listens to the
 * answer, and `idempotency_key`, the same for the same question (the tool,
 * its parameters as declared and typed, and `call_id` when a request carries
 * one).
 */

/** Request headers that are not passed on in the item. */
const HIDDEN_HEADERS = new Set([SECRET_HEADER.toLowerCase(), 'authorization', 'cookie']);

function coerce(value: unknown, type: ToolParameterType): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (type === 'number' && text !== '' && Number.isFinite(Number(text))) return Number(text);
	if (type === 'boolean') {
		if (/^(true|1|yes)$/i.test(text)) return true;
		if (/^(false|0|no)$/i.test(text)) return false;
	}
	return value;
}

/** A value as JSON with the keys of every object sorted (the same text for the same content). */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isObject(value)) {
		const keys = Object.keys(value).sort();
		return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}

/**
 * The key of a question: SHA-256 (hex) of the tool's id and name, the call id
 * when the request carries one (a number or text in `call_id`), and the
 * declared parameters as typed; the same whatever the order of the fields or
 * whether a number came as text.
 */
export function idempotencyKey(
	registration: Pick<ToolRegistration, 'toolId' | 'definition'>,
	parameters: IDataObject,
	callId?: unknown,
): string {
	const call = typeof callId === 'number' || typeof callId === 'string' ? String(callId) : null;
	const text = canonical([
		'voice-chat-assistant mid-call tool v1',
		registration.toolId,
		registration.definition.name,
		call,
		parameters,
	]);
	return createHash('sha256').update(text).digest('hex');
}

/**
 * The registration whose secret the request carries: one stored in the
 * static data (the active workflow's or a test listener's), or, for the
 * secret this node derives (core/secrets.ts), the tool as the form describes it
 * with the id stored last: a stale save of the static data may hold an older
 * registration than the tool the service calls, and turns no request away.
 */
async function registrationOf(
	ctx: IWebhookFunctions,
	given: unknown,
): Promise<ToolRegistration | undefined> {
	if (typeof given !== 'string' || given === '') return undefined;
	const stored = readToolRegistrations(ctx.getWorkflowStaticData('node'));
	const match = stored.find((r) => safeEqual(given, r.secret));
	if (match) return match;
	// n8n gives a webhook request the production URL: a test listener's tool is found by its stored secret
	const webhookUrl = ctx.getNodeWebhookUrl('default') ?? '';
	const derived = await toolSecret(ctx, webhookUrl);
	if (derived === undefined || !safeEqual(given, derived)) return undefined;
	const last = stored.find((r) => r.webhookUrl === webhookUrl);
	let definition = last?.definition;
	try {
		definition = readDefinition(ctx);
	} catch {
		// the form cannot be read: the stored definition, if any
	}
	if (!definition) return undefined;
	return {
		toolId: last?.toolId ?? 0,
		webhookUrl,
		secret: derived,
		definition,
		assistants: last?.assistants ?? [],
		attached: last?.attached ?? [],
	};
}

/**
 * Answers one tool request: 401 without the right secret (nothing starts),
 * 400 when the arguments are not an object, else one item for the workflow,
 * whose last node (or Respond to Webhook node) gives the answer.
 */
export async function toolRequest(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const headers = (ctx.getHeaderData() ?? {}) as IDataObject;
	const registration = await registrationOf(ctx, headers[SECRET_HEADER.toLowerCase()]);
	if (!registration) return answer(ctx, 401, { message: 'Unauthorized' });

	const request = ctx.getRequestObject() as unknown as { rawBody?: unknown; method?: string };
	const body = ctx.getBodyData() as unknown;
	const query = (ctx.getQueryData() ?? {}) as IDataObject;
	const emptyBody =
		body === undefined ||
		body === null ||
		body === '' ||
		(isObject(body) && Object.keys(body).length === 0);
	const emptyRaw = !(request.rawBody instanceof Uint8Array && request.rawBody.length > 0);
	let args: IDataObject;
	let source: 'body' | 'query';
	if (emptyBody && emptyRaw) {
		args = { ...query };
		source = 'query';
	} else {
		const parsed = parsePayload(body, request.rawBody);
		if (!parsed) {
			return answer(ctx, 400, {
				message: 'The tool request could not be read: its parameters must be a JSON object.',
			});
		}
		args = parsed;
		source = 'body';
	}

	const parameters: IDataObject = {};
	const otherFields: IDataObject = {};
	for (const [name, value] of Object.entries(args)) {
		const declared = registration.definition.schema.find((p) => p.name === name);
		if (declared) parameters[name] = coerce(value, declared.type) as IDataObject[string];
		else otherFields[name] = value;
	}
	const shownHeaders: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		if (!HIDDEN_HEADERS.has(name.toLowerCase())) shownHeaders[name] = value;
	}
	const receivedAt = new Date();
	const answerBy = new Date(receivedAt.getTime() + registration.definition.timeout * 1000);
	return {
		workflowData: [
			[
				{
					json: {
						tool: registration.definition.name,
						tool_id: registration.toolId,
						parameters,
						other_fields: otherFields,
						source,
						headers: shownHeaders,
						received_at: receivedAt.toISOString(),
						answer_by: answerBy.toISOString(),
						idempotency_key: idempotencyKey(registration, parameters, otherFields.call_id),
					},
				},
			],
		],
	};
}
