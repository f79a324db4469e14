import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkMaxLength, checkRequired } from '../validation';
import {
	recipientPhone,
	recipientPhoneField,
	senderId,
	senderLocator,
	sendWhatsApp,
} from './shared';
import { costNotice } from '../../descriptions';

const FREEFORM_MAX_LENGTH = 4096;

const properties: INodeProperties[] = [
	costNotice('sendWhatsApp', 'sendWhatsAppNotice'),
	{
		...senderLocator,
		description: `${senderLocator.description} The sender must be online.`,
	},
	recipientPhoneField(
		'Customer to reply to (reaches this person; costs money: charged to the account balance); only inside the 24-hour window after their last message,',
	),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: `Free text, at most ${FREEFORM_MAX_LENGTH} characters. Costs money (charged to the account balance). Only allowed while the customer's 24-hour window is open; otherwise send a template.`,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['whatsapp'], operation: ['sendFreeform'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const sender = senderId(this, itemIndex);
	const recipient = recipientPhone(this, itemIndex);
	const message = this.getNodeParameter('message', itemIndex, '') as string;
	checkRequired(this, itemIndex, 'Message', message);
	checkMaxLength(this, itemIndex, 'Message', message, FREEFORM_MAX_LENGTH);
	return await sendWhatsApp(this, itemIndex, '/api/user/whatsapp/send-freeform', {
		sender_id: sender,
		recipient_phone: recipient,
		message,
	});
}
