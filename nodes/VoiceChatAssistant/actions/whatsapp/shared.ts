import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { idLocator } from '../../descriptions';
import { apiRequest, ENDPOINT_LIMITS, isObject } from '../../transport';
import { readPhone } from '../sms/shared';
import { readLocatorId } from '../parameters';

export const senderLocator: INodeProperties = idLocator({
	displayName: 'Sender',
	name: 'senderId',
	searchListMethod: 'searchWhatsappSenders',
	description:
		'The WhatsApp Business sender (number) of the account. Pick it from the list or give its numeric ID (the ID of WhatsApp → Get Senders).',
});

export const templateLocator: INodeProperties = idLocator({
	displayName: 'Template',
	name: 'templateId',
	searchListMethod: 'searchWhatsappTemplates',
	description:
		'An approved message template of the chosen sender. Pick it from the list (approved templates of the sender) or give its numeric ID (the ID of WhatsApp → Get Templates).',
});

export function recipientPhoneField(description: string): INodeProperties {
	return {
		displayName: 'Recipient Phone',
		name: 'recipientPhone',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +4915112345678',
		description: `${description} in E.164 form: "+", country code and number, digits only`,
	};
}

export function senderId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'senderId', 'Sender');
}

/** The answer without the `success: true` flag (failures never get here: the transport raises them). */
export function withoutSuccess(answer: unknown): IDataObject {
	const rest = { ...((isObject(answer) ? answer : {}) as IDataObject) };
	delete rest.success;
	return rest;
}

/** What to do about the service's WhatsApp error codes. */
const HINTS: Record<string, string> = {
	INSUFFICIENT_BALANCE: 'Top up the account balance in the web app.',
	SESSION_EXPIRED:
		'The 24-hour window is closed (the customer has not written in the last 24 hours). Send an approved template instead (WhatsApp → Send Template), or check first with WhatsApp → Get Session Status.',
	SENDER_NOT_FOUND: 'Pick the sender from the list of WhatsApp → Get Senders.',
	SENDER_OFFLINE:
		'The sender is offline at Meta; see its status with WhatsApp → Get Senders (Status: All).',
	TEMPLATE_NOT_FOUND: 'The template must belong to the chosen sender: pick it from the list.',
	TEMPLATE_NOT_APPROVED: 'Only approved templates can be sent.',
	TEMPLATE_NOT_SYNCED: 'The template is not synced from Meta yet (synced every 4 hours).',
	INVALID_PHONE: 'Give the recipient in E.164 form, e.g. +4915112345678.',
	NO_ASSISTANT_CONFIGURED: 'Assign an assistant to the WhatsApp sender in the web app.',
};

/**
 * A failure of a WhatsApp endpoint with its `error_code` (and a hint) in the
 * description; other errors are passed on as n8n errors unchanged.
 */
export function whatsappError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (!(error instanceof NodeApiError)) {
		return new NodeApiError(ctx.getNode(), error as JsonObject, { itemIndex });
	}
	const response = error.errorResponse;
	const code =
		isObject(response) && typeof response.error_code === 'string' ? response.error_code : '';
	if (code) {
		const hint =
			HINTS[code] ?? (code.startsWith('TWILIO_ERROR') ? 'The carrier refused the message.' : '');
		const parts = [`Error code: ${code}.`, hint, error.description ?? ''];
		error.description = [...new Set(parts.filter(Boolean))].join(' ');
	}
	return error;
}

/** The recipient in E.164 form, with its "+" (WhatsApp's endpoints need it). */
export function recipientPhone(ctx: IExecuteFunctions, itemIndex: number): string {
	return readPhone(ctx, itemIndex, 'recipientPhone', 'Recipient Phone', { strict: true });
}

/**
 * A WhatsApp send: within the endpoint's 5 per second, and sent once, as it
 * costs money and reaches a person.
 */
export async function sendWhatsApp(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
	body: IDataObject,
): Promise<IDataObject> {
	let answer: unknown;
	try {
		answer = await apiRequest.call(ctx, 'POST', path, {
			body,
			itemIndex,
			endpointLimit: ENDPOINT_LIMITS.whatsappSend,
			retry: 'sendOnce',
			checkBeforeRetry: 'check the WhatsApp conversation in the web app',
		});
	} catch (error) {
		throw whatsappError(ctx, error, itemIndex);
	}
	return withoutSuccess(answer);
}
