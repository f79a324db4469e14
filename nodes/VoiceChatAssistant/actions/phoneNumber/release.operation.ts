import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { phoneNumberLocator } from '../../descriptions';
import { phoneNumberId } from './shared';

export const RELEASE_EFFECT =
	'Irreversible: the number may not be obtainable again. A bought number stops renewing and stays until the end of its billing period; a SIP trunk or caller ID number is deleted at once. Assistants using the number lose it (count on this happening at once) and campaigns stop using it; call history stays';

const properties: INodeProperties[] = [
	{
		...phoneNumberLocator,
		description: `The phone number to release. ${RELEASE_EFFECT}.`,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['release'] } },
	properties,
);

/** What the service's answer says happens to the number, when its text says so. */
export function removal(message: unknown): IDataObject {
	const text = typeof message === 'string' ? message : '';
	if (/end of the billing period/i.test(text)) return { removed: 'at end of billing period' };
	if (/deleted/i.test(text)) return { removed: 'immediately' };
	return {};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = phoneNumberId(this, itemIndex);
	const answer = await apiRequest.call(this, 'DELETE', `/api/user/phone-numbers/${id}`, {
		itemIndex,
	});
	const message = messageOf(answer);
	return { released: true, id, ...message, ...removal(message.message) };
}
