import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import type { InFlightSlots } from '../../transport';
import { getClock } from '../../transport/clock';
import { createOnce } from '../../transport/createOnce';
import {
	campaignLocator,
	keyValueCollection,
	phoneNumberField,
	variablesFields,
} from '../../descriptions';
import { itemError } from '../itemError';
import { parallelRequestsProperty } from '../parallel';
import {
	noteCreated,
	lookUpAfterLostAnswer,
	readStored,
	readStoredOrFail,
	StoredBefore,
	storedEarlier,
} from './ownAttempt';
import type { Duplicate } from './ownAttempt';
import { leadDifferences } from './shared';
import type { LeadContent } from './shared';
import { readLocatorId, readVariableParams, readVariables } from '../parameters';
import { checkE164, checkVariableName } from '../validation';
import { optionsCollection } from '../commonFields';

const properties: INodeProperties[] = [
	{
		...campaignLocator,
		description: 'The campaign the lead is added to. Pick it from the list or give its numeric ID.',
	},
	phoneNumberField('Phone number of the lead'),
	{
		displayName: 'Variables From',
		name: 'variablesFrom',
		type: 'options',
		default: 'fieldsBelow',
		description:
			'Where the variables of the lead come from: values the assistant can use in its prompts as {{variable_name}}, e.g. customer_name or email',
		options: [
			{
				name: 'Fields Below',
				value: 'fieldsBelow',
				description: 'The name/value pairs and Variables (JSON) below',
			},
			{
				name: 'Input Fields',
				value: 'inputFields',
				description:
					'Every field of the input item is a variable, except the fields to leave out. No expression per variable, so large imports run faster.',
			},
		],
	},
	{
		displayName: 'Fields to Leave Out',
		name: 'fieldsToLeaveOut',
		type: 'string',
		default: 'phone, phone_number',
		placeholder: 'e.g. phone, phone_number, row',
		description:
			'Comma-separated names of input fields that are not variables, e.g. the phone number column. The other fields are sent as they are: text, numbers, true/false, lists and objects alike, an empty (null) value as null.',
		displayOptions: { show: { variablesFrom: ['inputFields'] } },
	},
	...variablesFields(
		'Values the assistant can use in its prompts as {{variable_name}}, e.g. customer_name or email',
	).map((field) => ({
		...field,
		displayOptions: { show: { variablesFrom: ['fieldsBelow'] } },
	})),
	{
		displayName: 'Secondary Contacts',
		name: 'secondaryContacts',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Secondary Contact',
		default: {},
		description: 'Further numbers of the same lead, each with its own variables',
		options: [
			{
				displayName: 'Contact',
				name: 'contacts',
				values: [
					{
						displayName: 'Phone Number',
						name: 'phoneNumber',
						type: 'string',
						default: '',
						placeholder: 'e.g. +4915112345678',
						description: 'Phone number in E.164 form',
					},
					keyValueCollection(
						'Variables',
						'variables',
						'Variables of this contact as name/value pairs',
					),
					{
						displayName: 'Variables (JSON)',
						name: 'variablesJson',
						type: 'json',
						default: '{}',
						description:
							'Variables of this contact as a JSON object. Merged with the name/value pairs (the pairs win).',
					},
				],
			},
		],
	},
	optionsCollection([
		{
			displayName: 'On Duplicate',
			name: 'onDuplicate',
			type: 'options',
			default: 'useStored',
			description:
				'What to do when the campaign already has a lead with this phone number, e.g. when an interrupted import is run again',
			options: [
				{
					name: 'Allow',
					value: 'allow',
					description:
						'Create the lead anyway (sends allow_dupplicate: true). Running an import again stores its leads twice, and a running campaign calls them twice. A create whose answer is lost is not sent again.',
				},
				{
					name: 'Fail',
					value: 'fail',
					description: 'Fail the item with the service message',
				},
				{
					name: 'Skip',
					value: 'skip',
					description:
						'Keep the stored lead whatever its variables: output it (read back, one extra request per duplicate) with skipped: true and the service reason',
				},
				{
					name: 'Use Stored Lead If Identical',
					value: 'useStored',
					description:
						'Read the stored lead back (one extra request per duplicate). If its variables and secondary contacts are the ones sent, output it with already_stored: true; if they differ, fail the item and say what differs. Makes running an import again safe.',
				},
			],
		},
	]),
];

/** Many items are typical here, each one request: the router runs up to "Requests in Flight" at a time. */
export const parallel = true;

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['create'] } },
	[...properties, parallelRequestsProperty],
);

/** Names of a comma-separated list, trimmed, empty ones left out. */
function nameList(value: unknown): string[] {
	return String(value ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
}

/**
 * Variables From → Input Fields: every field of the input item except Fields to
 * Leave Out, each value as the JSON body carries it (as Variables (JSON) sends
 * the fields of `{{ $json }}`): a field without a value (undefined) is left
 * out, a date is its JSON text, so that a duplicate is compared with what was sent.
 */
function inputFieldVariables(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const leaveOut = new Set(nameList(ctx.getNodeParameter('fieldsToLeaveOut', itemIndex, '')));
	const json = ctx.getInputData()[itemIndex]?.json ?? {};
	const variables: IDataObject = {};
	for (const [name, value] of Object.entries(json)) {
		if (leaveOut.has(name) || value === undefined) continue;
		checkVariableName(ctx, itemIndex, 'Variables From → Input Fields', name);
		const toJSON = (value as { toJSON?: () => unknown } | null)?.toJSON;
		variables[name] = (
			typeof toJSON === 'function' ? toJSON.call(value) : value
		) as IDataObject[string];
	}
	return variables;
}

/** A 422 of the service that says the phone number is already a lead of the campaign. */
function isDuplicateResponse(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '422') return false;
	const text = `${error.message} ${error.description ?? ''}`.toLowerCase();
	return text.includes('phone_number') && /already|exist|duplicate/.test(text);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	slots?: InFlightSlots,
): Promise<IDataObject> {
	const campaignId = readLocatorId(this, itemIndex, 'campaignId', 'Campaign');
	const phoneNumber = String(this.getNodeParameter('phoneNumber', itemIndex, '')).trim();
	checkE164(this, itemIndex, 'Phone Number', phoneNumber);
	const variables =
		this.getNodeParameter('variablesFrom', itemIndex, 'fieldsBelow') === 'inputFields'
			? inputFieldVariables(this, itemIndex)
			: readVariableParams(this, itemIndex);
	const contacts = ((this.getNodeParameter('secondaryContacts', itemIndex, {}) as IDataObject)
		.contacts ?? []) as IDataObject[];
	const secondary = contacts.map((contact, n) => {
		const phone = String(contact.phoneNumber ?? '').trim();
		checkE164(this, itemIndex, `Secondary Contacts → Contact ${n + 1} → Phone Number`, phone);
		return {
			phone_number: phone,
			variables: readVariables(
				this,
				itemIndex,
				`Secondary Contacts → Contact ${n + 1} → Variables (JSON)`,
				contact.variables,
				contact.variablesJson,
			),
		};
	});
	const onDuplicate =
		(this.getNodeParameter('options.onDuplicate', itemIndex, 'useStored') as string) || 'useStored';

	const body: IDataObject = { phone_number: phoneNumber, campaign_id: campaignId };
	if (Object.keys(variables).length) body.variables = variables;
	if (secondary.length) body.secondary_contacts = secondary;
	if (onDuplicate === 'allow') body.allow_dupplicate = true;

	// Without "Allow", the phone number in its campaign is the lead's natural key: the service refuses a
	// second copy (transport/createOnce.ts); after a lost answer only a lead that attempt can have stored
	// is the item's (ownAttempt.ts), any other goes through On Duplicate.
	const path = '/api/user/lead';
	const checkBeforeRetry = `look for ${phoneNumber} with Lead → Get Many (phone filter)`;
	const item = {
		phoneNumber,
		campaignId,
		sent: { variables, secondary_contacts: secondary },
		slots,
	};
	const created = (lead: IDataObject) => {
		// a lead this run created bounds the IDs of leads created after it (for a later lost answer)
		if (!lead.created_by_earlier_attempt) noteCreated(this, lead, getClock().now());
		return lead;
	};
	try {
		if (onDuplicate === 'allow') {
			return created(
				unwrap(
					await apiRequest.call(this, 'POST', path, { body, itemIndex, checkBeforeRetry, slots }),
				),
			);
		}
		return created(
			await createOnce(this, itemIndex, {
				path,
				body,
				noun: 'lead',
				checkBeforeRetry,
				slots,
				policy: {
					kind: 'naturalKey',
					isDuplicate: isDuplicateResponse,
					storedEarlier: async (response, started) =>
						await storedEarlier(this, itemIndex, { ...item, response }, started),
					lookUp: async (started) => await lookUpAfterLostAnswer(this, itemIndex, item, started),
				},
			}),
		);
	} catch (error) {
		if (!isDuplicateResponse(error) && !(error instanceof StoredBefore))
			throw itemError(this, error, itemIndex);
		const duplicate: Duplicate = { ...item, response: error as Error };
		if (onDuplicate === 'useStored') return await storedIfIdentical(this, itemIndex, duplicate);
		if (onDuplicate === 'skip') return await skipped(this, itemIndex, duplicate);
		if (error instanceof StoredBefore)
			throw new NodeOperationError(this.getNode(), error.message, { itemIndex });
		throw itemError(this, error, itemIndex);
	}
}

/** Of the stored leads with the phone number, the one that is what was sent, else the newest. */
function closest(stored: IDataObject[], sent: LeadContent) {
	const identical = stored.find((lead) => leadDifferences(lead, sent).length === 0);
	const lead = identical ?? stored[0];
	return { lead, differences: identical ? [] : leadDifferences(lead, sent) };
}

/**
 * On Duplicate → Use Stored Lead If Identical: the stored lead, marked
 * `already_stored`, when it has the variables and secondary contacts sent (a
 * lead of an earlier run of the same import); otherwise the item fails and says
 * what differs.
 */
async function storedIfIdentical(
	ctx: IExecuteFunctions,
	itemIndex: number,
	duplicate: Duplicate,
): Promise<IDataObject> {
	const { response, phoneNumber, campaignId, sent } = duplicate;
	const already = `Campaign ${campaignId} already has a lead with the phone number ${phoneNumber}`;
	const choices =
		'To keep the stored lead as it is, set Options → On Duplicate → Skip; to store a second lead with this phone number, set it to Allow; to change the stored lead, use Lead → Update.';
	const stored = await readStoredOrFail(
		ctx,
		itemIndex,
		duplicate,
		`${already}; reading it back to compare it with this item failed`,
		`Nothing was stored by this item. ${choices}`,
	);
	if (!stored.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${already} (${response.message}), but Lead → Get Many with its phone number did not find it to compare it with this item`,
			{ itemIndex, description: `Nothing was stored by this item. ${choices}` },
		);
	}
	const { lead, differences } = closest(stored, sent);
	if (!differences.length) return { ...lead, already_stored: true };
	const shown = differences.slice(0, 5).join('; ');
	const more = differences.length > 5 ? `; and ${differences.length - 5} more` : '';
	throw new NodeOperationError(
		ctx.getNode(),
		`${already} (lead ${String(lead.id)}) with other data: ${shown}${more}. On Duplicate → Skip keeps the stored lead, Allow stores a second one.`,
		{ itemIndex, description: `Nothing was stored or changed by this item. ${choices}` },
	);
}

/**
 * On Duplicate → Skip: the input item with `skipped: true` and the service's
 * reason, and the stored lead (its ID and fields) when it can be read back.
 */
async function skipped(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ response, phoneNumber, campaignId, sent, slots }: Duplicate,
): Promise<IDataObject> {
	const mark = { skipped: true, reason: response.message };
	const input = ctx.getInputData()[itemIndex].json;
	try {
		const stored = await readStored(ctx, itemIndex, phoneNumber, campaignId, slots);
		if (stored.length) return { ...input, ...closest(stored, sent).lead, ...mark };
	} catch {
		// the item is skipped either way; the stored lead is a courtesy
	}
	return { ...input, ...mark };
}
