import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isObject } from '../VoiceChatAssistant/transport';
import { readToolRegistrations, SECRET_HEADER } from './midCallTool';
import type { ParameterType } from './midCallTool';
import { parsePayload } from './payload';
import { safeEqual } from './registration';

/**
 * How the "Mid-Call Tool Request" event answers the service's request during
 * a call: the secret header checked, the arguments read, one item for the
 * workflow.
 */

/** Request headers that are not passed on in the item. */
const HIDDEN_HEADERS = new Set([SECRET_HEADER.toLowerCase(), 'authorization', 'cookie']);

function coerce(value: unknown, type: ParameterType): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (type === 'number' && text !== '' && Number.isFinite(Number(text))) return Number(text);
	if (type === 'boolean') {
		if (/^(true|1|yes)$/i.test(text)) return true;
		if (/^(false|0|no)$/i.test(text)) return false;
	}
	return value;
}

/** Writes a JSON answer and tells n8n it is sent. */
function answer(
	ctx: IWebhookFunctions,
	statusCode: number,
	body: IDataObject,
): IWebhookResponseData {
	ctx.getResponseObject().status(statusCode).json(body);
	return { noWebhookResponse: true };
}

/**
 * Answers one tool request: 401 without the right secret (nothing starts),
 * 400 when the arguments are not an object, else one item for the workflow,
 * whose last node (or Respond to Webhook node) gives the answer.
 */
export function toolRequest(ctx: IWebhookFunctions): IWebhookResponseData {
	const headers = (ctx.getHeaderData() ?? {}) as IDataObject;
	const given = headers[SECRET_HEADER.toLowerCase()];
	// the secret of one of this node's tools (the active workflow's or a test listener's)
	const registration =
		typeof given === 'string'
			? readToolRegistrations(ctx.getWorkflowStaticData('node')).find((r) =>
					safeEqual(given, r.secret),
				)
			: undefined;
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
						received_at: new Date().toISOString(),
					},
				},
			],
		],
	};
}
