import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, recordWithMessage } from '../../transport';
import { updateFieldsCollection } from '../commonFields';
import { refuse } from '../validation';
import {
	SIP_TRUNKS_PATH,
	addressField,
	authTypeField,
	callingFormatField,
	countryCodeField,
	ipsField,
	nicknameField,
	outboundProxyField,
	passwordField,
	phoneNumberField,
	sipTrunkId,
	sipTrunkLocator,
	trunkBody,
	usernameField,
	withoutSecrets,
} from './shared';

const properties: INodeProperties[] = [
	sipTrunkLocator,
	updateFieldsCollection(
		[
			{
				...ipsField,
				description: `${ipsField.description} Required when switching Inbound Authorization to IP Allowlist.`,
			},
			callingFormatField,
			countryCodeField,
			{
				...authTypeField,
				description:
					'How calls coming in from the SIP provider are recognised. Switching to IP Allowlist needs Allowed Inbound IPs; switching to Username and Password removes the IP list.',
			},
			{ ...nicknameField, description: `${nicknameField.description}. Empty removes it.` },
			outboundProxyField,
			phoneNumberField,
			addressField,
			passwordField,
			usernameField,
		],
		'Only the fields added here change. Changing credentials, address or outbound proxy re-provisions the trunk.',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['sipTrunk'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = sipTrunkId(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const values: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) if (value !== undefined) values[key] = value;
	if (!Object.keys(values).length) {
		refuse(
			this,
			itemIndex,
			'Update Fields is empty: add at least one field to change',
			'E.g. Nickname, SIP Address, or Inbound Authorization with Allowed Inbound IPs.',
		);
	}
	if (
		values.inbound_authorization_type === 'ip' &&
		(values.allowed_inbound_ips === undefined || values.allowed_inbound_ips === '')
	) {
		refuse(
			this,
			itemIndex,
			'Allowed Inbound IPs is required when switching Inbound Authorization to IP Allowlist',
			'Add "Allowed Inbound IPs" to Update Fields with the addresses the SIP provider calls from.',
		);
	}
	const body = trunkBody(this, itemIndex, values, undefined);
	const answer = await apiRequest.call(this, 'PUT', `${SIP_TRUNKS_PATH}/${id}`, {
		body,
		itemIndex,
	});
	return withoutSecrets(recordWithMessage(answer));
}
