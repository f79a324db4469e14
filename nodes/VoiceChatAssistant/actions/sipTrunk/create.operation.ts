import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, recordWithMessage } from '../../transport';
import { checkEnum, checkRequired } from '../validation';
import {
	SIP_TRUNKS_PATH,
	TRUNK_TYPES,
	addressField,
	authTypeField,
	callingFormatField,
	countryCodeField,
	ipsField,
	nicknameField,
	outboundProxyField,
	passwordField,
	phoneNumberField,
	trunkBody,
	usernameField,
	withoutSecrets,
} from './shared';

const required = (field: INodeProperties): INodeProperties => ({ ...field, required: true });

const properties: INodeProperties[] = [
	{
		displayName: 'Trunk Type',
		name: 'sip_trunk_type',
		type: 'options',
		required: true,
		default: 'number',
		description: 'Whether the trunk is reached by a phone number or by an extension',
		options: [
			{
				name: 'Extension',
				value: 'extension',
				description: 'An extension of a PBX, 1-15 characters',
			},
			{ name: 'Number', value: 'number', description: 'A phone number in E.164 form' },
		],
	},
	required(phoneNumberField),
	required(usernameField),
	required(passwordField),
	required(addressField),
	required(callingFormatField),
	required(authTypeField),
	{
		...required(ipsField),
		displayOptions: { show: { inbound_authorization_type: ['ip'] } },
	},
	required(countryCodeField),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [nicknameField, outboundProxyField],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['sipTrunk'], operation: ['create'] } },
	properties,
);

const REQUIRED: Array<[string, string]> = [
	['phone_number', 'Phone Number'],
	['sip_username', 'SIP Username'],
	['sip_password', 'SIP Password'],
	['sip_address', 'SIP Address'],
	['country_code', 'Country Code'],
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const type = String(this.getNodeParameter('sip_trunk_type', itemIndex, '')).trim();
	checkRequired(this, itemIndex, 'Trunk Type', type);
	checkEnum(this, itemIndex, 'Trunk Type', type, TRUNK_TYPES);
	const values: IDataObject = {};
	for (const [name, label] of REQUIRED) {
		values[name] = this.getNodeParameter(name, itemIndex, '');
		checkRequired(this, itemIndex, label, values[name]);
	}
	values.sip_calling_format = this.getNodeParameter('sip_calling_format', itemIndex, '');
	values.inbound_authorization_type = this.getNodeParameter(
		'inbound_authorization_type',
		itemIndex,
		'',
	);
	if (values.inbound_authorization_type === 'ip') {
		values.allowed_inbound_ips = this.getNodeParameter('allowed_inbound_ips', itemIndex, '');
	}
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (additional.nickname !== undefined && String(additional.nickname).trim() !== '') {
		values.nickname = additional.nickname;
	}
	values.outbound_proxy = additional.outbound_proxy ?? false;
	const body: IDataObject = {
		sip_trunk_type: type,
		...trunkBody(this, itemIndex, values, type as (typeof TRUNK_TYPES)[number]),
	};
	const answer = await apiRequest.call(this, 'POST', SIP_TRUNKS_PATH, { body, itemIndex });
	return withoutSecrets(recordWithMessage(answer));
}
