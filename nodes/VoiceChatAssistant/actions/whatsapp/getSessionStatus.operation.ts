import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import {
	recipientPhone,
	recipientPhoneField,
	senderId,
	senderLocator,
	whatsappError,
	withoutSuccess,
} from './shared';

const properties: INodeProperties[] = [
	senderLocator,
	recipientPhoneField('The customer whose 24-hour window to check,'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['whatsapp'], operation: ['getSessionStatus'] } },
	properties,
);

/**
 * Whether free text may be sent to a customer (the 24-hour window after the
 * customer's last message is open) or a template is needed. Read-only, free.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const sender = senderId(this, itemIndex);
	const recipient = recipientPhone(this, itemIndex);
	let answer: unknown;
	try {
		// the query string encoding sends "+" as %2B, as the service requires
		answer = await apiRequest.call(this, 'GET', '/api/user/whatsapp/session-status', {
			qs: { sender_id: sender, recipient_phone: recipient },
			itemIndex,
		});
	} catch (error) {
		throw whatsappError(this, error, itemIndex);
	}
	return { sender_id: sender, recipient_phone: recipient, ...withoutSuccess(answer) };
}
