import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, recordWithMessage } from '../../transport';
import { phoneNumberLocator } from '../../descriptions';
import { checkMaxLength } from '../validation';
import { phoneNumberId } from './shared';

const NICKNAME_MAX = 50;

const properties: INodeProperties[] = [
	{
		...phoneNumberLocator,
		description: 'The phone number to rename. Pick it from the list or give its numeric ID.',
	},
	{
		displayName: 'Nickname',
		name: 'nickname',
		type: 'string',
		default: '',
		placeholder: 'e.g. Support hotline',
		description: `Name shown for the number, at most ${NICKNAME_MAX} characters. Leave empty to remove the nickname.`,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['updateNickname'] } },
	properties,
);

/**
 * An empty nickname is sent as null: the service documents both null and ""
 * as "clear", and null is what its own client sends and what a server without
 * Laravel's empty-string conversion also reads as "no nickname".
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = phoneNumberId(this, itemIndex);
	const raw = this.getNodeParameter('nickname', itemIndex, '') as unknown;
	const nickname = raw === null || raw === undefined ? '' : String(raw).trim();
	checkMaxLength(this, itemIndex, 'Nickname', nickname, NICKNAME_MAX);
	const answer = await apiRequest.call(this, 'PUT', `/api/user/phone-numbers/${id}`, {
		body: { nickname: nickname === '' ? null : nickname },
		itemIndex,
	});
	return recordWithMessage(answer);
}
