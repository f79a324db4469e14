import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, recordWithMessage } from '../../transport';
import { updateFieldsCollection } from '../commonFields';
import { refuse } from '../validation';
import * as trunk from './shared';

const properties: INodeProperties[] = [
	trunk.sipTrunkLocator,
	updateFieldsCollection(
		[
			{
				...trunk.ipsField,
				description: `${trunk.ipsField.description} Required when switching Inbound Authorization to IP Allowlist.`,
			},
			trunk.callingFormatField,
			trunk.countryCodeField,
			{
				...trunk.authTypeField,
				description:
					'How calls coming in from the SIP provider are recognised. Switching to IP Allowlist needs Allowed Inbound IPs; switching to Username and Password removes the IP list.',
			},
			{
				...trunk.nicknameField,
				description: `${trunk.nicknameField.description}. Empty removes it.`,
			},
			trunk.outboundProxyField,
			trunk.phoneNumberField,
			trunk.addressField,
			trunk.passwordField,
			trunk.usernameField,
		],
		'Only the fields added here change. Changing credentials, address or outbound proxy re-provisions the trunk.',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['sipTrunk'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = trunk.sipTrunkId(this, itemIndex);
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
	const body = trunk.trunkBody(this, itemIndex, values, undefined);
	const answer = await apiRequest.call(this, 'PUT', `${trunk.SIP_TRUNKS_PATH}/${id}`, {
		body,
		itemIndex,
	});
	return trunk.withoutSecrets(recordWithMessage(answer));
}
