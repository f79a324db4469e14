import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList, recordWithMessage } from '../../transport';
import { createdSince, createOnce } from '../../transport/createOnce';
import { itemError } from '../itemError';
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
	// The phone number, SIP username and SIP address are the trunk's natural key: the service refuses
	// a second trunk with all three (409). A 500 is no unknown outcome here: the service documents it
	// as a failed provisioning that saved nothing (check the SIP settings), so it is not sent again.
	try {
		return await createOnce(this, itemIndex, {
			path: SIP_TRUNKS_PATH,
			body,
			noun: 'SIP trunk',
			shape: (response) => withoutSecrets(recordWithMessage(response)),
			policy: {
				kind: 'naturalKey',
				resendAfterServerError: false,
				isDuplicate: isDuplicateResponse,
				storedEarlier: async (duplicate, started) =>
					await storedEarlier(this, itemIndex, body, started, duplicate),
			},
		});
	} catch (error) {
		throw itemError(this, error, itemIndex);
	}
}

/** A 409 of the service: a SIP trunk with this phone number, username and address exists. */
function isDuplicateResponse(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '409';
}

const sameKey = (trunk: IDataObject, body: IDataObject) =>
	String(trunk.phone_number ?? '') === body.phone_number &&
	String(trunk.sip_username ?? '') === body.sip_username &&
	String(trunk.sip_address ?? '').toLowerCase() === String(body.sip_address).toLowerCase();

/**
 * The trunk an earlier attempt of this item stored (its outcome was unknown and
 * the resend was refused as a duplicate), read back from the list; without it,
 * what is known. A trunk with
 * this key that is older than the item's first attempt was there before: then
 * the duplicate is a real one and the item fails.
 */
async function storedEarlier(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	started: number,
	duplicate: NodeApiError,
): Promise<IDataObject> {
	let trunks: IDataObject[] | undefined;
	try {
		trunks = asList(await apiRequest.call(ctx, 'GET', SIP_TRUNKS_PATH, { itemIndex }));
	} catch {
		// the trunk exists (the service said so); reading it back is a courtesy
	}
	const matches = (trunks ?? []).filter((trunk) => sameKey(trunk, body));
	const ours = matches.filter((trunk) => createdSince(trunk, started));
	if (ours.length === 1) return withoutSecrets(ours[0]);
	if (matches.length && !ours.length) {
		duplicate.description = [
			duplicate.description,
			`The SIP trunk with this phone number, username and address (ID ${matches.map((t) => t.id).join(', ')}) existed before this item ran.`,
		]
			.filter(Boolean)
			.join(' ');
		throw itemError(ctx, duplicate, itemIndex);
	}
	const known: IDataObject = { ...body };
	delete known.sip_trunk_type;
	return withoutSecrets(known);
}
