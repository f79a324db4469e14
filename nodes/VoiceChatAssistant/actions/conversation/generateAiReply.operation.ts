import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, ENDPOINT_LIMITS, isObject } from '../../transport';
import { credentialSettings } from '../../transport/credentials';
import { assistantLocator, variablesFields, costNotice } from '../../descriptions';
import { readLocatorId, readVariableParams } from '../parameters';
import { checkMaxLength, checkRequired } from '../validation';
import { messageField } from './shared';

/** The documented path (since 2026-05-27) first, then the one it replaced. */
const AI_REPLY_PATHS = ['/api/user/ai/generate-reply', '/api/ai/generate-reply'] as const;

/** The path that answered last, per base URL: a deployment that lacks one is asked the other first. */
const workingPath = new Map<string, string>();

/** Forgets the remembered paths (tests). */
export function resetAiReplyPaths() {
	workingPath.clear();
}

const properties: INodeProperties[] = [
	costNotice('generateAiReply', 'generateAiReplyNotice'),
	{
		...assistantLocator,
		description:
			'The assistant that writes the reply (one of the account). Pick it from the list or give its numeric ID.',
	},
	{
		displayName: 'Customer Identifier',
		name: 'customerIdentifier',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +4915112345678 or user-42@example.com',
		description:
			'Who the customer is in your channel (phone number, e-mail, chat ID), at most 255 characters. Replies to the same identifier and assistant continue the same conversation.',
	},
	messageField(
		"The customer's message the assistant answers. Costs money: each reply is charged to the account balance.",
	),
	...variablesFields(
		"Values merged into the conversation's variables, usable in the prompt as {{variable_name}}",
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['generateAiReply'] } },
	properties,
);

/** A 404 of a route the deployment does not have (not the service's own JSON error of the operation). */
function isMissingRoute(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || String(error.httpCode) !== '404') return false;
	const answer = error.errorResponse;
	return !(
		isObject(answer) &&
		(answer.error_code !== undefined || answer.success === false || answer.status === false)
	);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const assistantId = readLocatorId(this, itemIndex, 'assistantId', 'Assistant');
	const customer = String(this.getNodeParameter('customerIdentifier', itemIndex, '') ?? '').trim();
	checkRequired(this, itemIndex, 'Customer Identifier', customer);
	checkMaxLength(this, itemIndex, 'Customer Identifier', customer, 255);
	const message = this.getNodeParameter('message', itemIndex, '') as string;
	checkRequired(this, itemIndex, 'Message', message);
	const variables = readVariableParams(this, itemIndex);

	const body: IDataObject = {
		assistant_id: assistantId,
		customer_identifier: customer,
		message,
	};
	if (Object.keys(variables).length) body.variables = variables;

	const { baseUrl } = await credentialSettings(this);
	const first = workingPath.get(baseUrl) ?? AI_REPLY_PATHS[0];
	const paths = [first, ...AI_REPLY_PATHS.filter((path) => path !== first)];
	let answer: unknown;
	for (let i = 0; ; i++) {
		try {
			// a POST that costs money: the transport does not send it again after an uncertain failure
			answer = await apiRequest.call(this, 'POST', paths[i], {
				body,
				itemIndex,
				endpointLimit: ENDPOINT_LIMITS.aiReply,
				// costs money: never sent twice
				retry: 'sendOnce',
				checkBeforeRetry: 'check the conversation of this customer in Conversation → Get Many',
			});
			workingPath.set(baseUrl, paths[i]);
			break;
		} catch (error) {
			// a missing route was not applied: asking the other path cannot charge twice
			if (i + 1 < paths.length && isMissingRoute(error)) continue;
			// an n8n error already (the transport's); re-wrapping hands back the same error
			throw new NodeApiError(this.getNode(), error as JsonObject);
		}
	}
	const rest = { ...((isObject(answer) ? answer : {}) as IDataObject) };
	delete rest.success;
	return rest;
}
