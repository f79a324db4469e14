import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, recordWithMessage } from '../../transport';
import { checkMaxLength, checkRequired } from '../validation';
import { readPhone, SMS_MAX_LENGTH, smsSenderId, smsSenderLocator } from './shared';
import { costNotice } from '../../descriptions';

const properties: INodeProperties[] = [
	costNotice('sendSms', 'sendSmsNotice'),
	smsSenderLocator,
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +4915112345678',
		description:
			'Recipient in international form: "+", country code and number (E.164, e.g. +4915112345678; spaces and a leading 00 are accepted). The SMS reaches this person and costs money.',
	},
	{
		displayName: 'Message',
		name: 'body',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: `Text of the SMS, at most ${SMS_MAX_LENGTH} characters. Costs money: charged to the account balance per segment (160 plain characters, fewer with emoji or accents; a longer text takes several segments), the price depends on the destination country.`,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['sms'], operation: ['send'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const from = smsSenderId(this, itemIndex);
	// the same check as WhatsApp's recipient: E.164, separators and a leading 00 tolerated
	const to = readPhone(this, itemIndex, 'to', 'To', { strict: true });
	const body = this.getNodeParameter('body', itemIndex, '') as string;
	checkRequired(this, itemIndex, 'Message', body);
	checkMaxLength(this, itemIndex, 'Message', body, SMS_MAX_LENGTH);
	const answer = await apiRequest.call(this, 'POST', '/api/user/sms', {
		body: { from, to, body },
		itemIndex,
		// costs money and reaches a person: never sent twice
		retry: 'sendOnce',
		checkBeforeRetry: 'check the account balance and the SMS log in the web app',
	});
	return recordWithMessage(answer);
}
