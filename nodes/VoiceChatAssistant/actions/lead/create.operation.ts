import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, apiRequestAllItems, unwrap } from '../../transport';
import type { RequestOutcome } from '../../transport';
import {
	campaignLocator,
	keyValueCollection,
	phoneNumberField,
	variablesFields,
} from '../../descriptions';
import { itemError } from '../itemError';
import { parallelRequestsProperty } from '../parallel';
import { checkE164, readLocatorId, readVariableParams, readVariables } from '../validation';

const properties: INodeProperties[] = [
	{
		...campaignLocator,
		description: 'The campaign the lead is added to. Pick it from the list or give its numeric ID.',
	},
	phoneNumberField('Phone number of the lead'),
	...variablesFields(
		'Values the assistant can use in its prompts as {{variable_name}}, e.g. customer_name or email',
	),
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'On Duplicate',
				name: 'onDuplicate',
				type: 'options',
				default: 'fail',
				description: 'What to do when the campaign already has a lead with this phone number',
				options: [
					{
						name: 'Allow',
						value: 'allow',
						description: 'Create the lead anyway (sends allow_dupplicate: true)',
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
							'Output the input item with skipped: true and the service reason, so re-running an import is safe',
					},
				],
			},
		],
	},
];

/** Many items are typical here, each one request: the router runs up to "Requests in Flight" at a time. */
export const parallel = true;

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['create'] } },
	[...properties, parallelRequestsProperty],
);

/** A 422 of the service that says the phone number is already a lead of the campaign. */
export function isDuplicateAnswer(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '422') return false;
	const text = `${error.message} ${error.description ?? ''}`.toLowerCase();
	return text.includes('phone_number') && /already|exist|duplicate/.test(text);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const campaignId = readLocatorId(this, itemIndex, 'campaignId', 'Campaign');
	const phoneNumber = String(this.getNodeParameter('phoneNumber', itemIndex, '')).trim();
	checkE164(this, itemIndex, 'Phone Number', phoneNumber);
	const variables = readVariableParams(this, itemIndex);
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
		(this.getNodeParameter('options.onDuplicate', itemIndex, 'fail') as string) || 'fail';

	const body: IDataObject = { phone_number: phoneNumber, campaign_id: campaignId };
	if (Object.keys(variables).length) body.variables = variables;
	if (secondary.length) body.secondary_contacts = secondary;
	if (onDuplicate === 'allow') body.allow_dupplicate = true;

	// Without "Allow", the phone number in its campaign is the lead's natural key: the service refuses a
	// second copy, so the request is sent again after any failure, and a "duplicate" answer to a resend
	// proves that the earlier attempt stored the lead.
	const naturalKey = onDuplicate !== 'allow';
	const outcome: RequestOutcome = { earlierAttemptMayHaveApplied: false };
	try {
		return unwrap(
			await apiRequest.call(this, 'POST', '/api/user/lead', {
				body,
				itemIndex,
				naturalKey,
				outcome,
				checkBeforeRetry: `look for ${phoneNumber} with Lead → Get Many (phone filter)`,
			}),
		);
	} catch (error) {
		if (isDuplicateAnswer(error) && naturalKey && outcome.earlierAttemptMayHaveApplied) {
			return await storedEarlier(this, itemIndex, phoneNumber, campaignId);
		}
		if (onDuplicate === 'skip' && isDuplicateAnswer(error)) {
			return {
				...this.getInputData()[itemIndex].json,
				skipped: true,
				reason: (error as NodeApiError).message,
			};
		}
		throw itemError(this, error, itemIndex);
	}
}

/**
 * The lead an earlier attempt of this item stored (its answer was lost), read
 * back with Lead → Get Many's phone filter; without it, what is known.
 */
async function storedEarlier(
	ctx: IExecuteFunctions,
	itemIndex: number,
	phoneNumber: string,
	campaignId: number,
): Promise<IDataObject> {
	const note = { stored_by_earlier_attempt: true };
	try {
		const leads = (await apiRequestAllItems.call(
			ctx,
			'/api/user/leads',
			{ phone_number: phoneNumber, campaign_id: campaignId },
			10,
			itemIndex,
		)) as IDataObject[];
		const lead = leads.find(
			(entry) =>
				entry.phone_number === phoneNumber &&
				(entry.campaign_id === undefined || Number(entry.campaign_id) === campaignId),
		);
		if (lead) return { ...lead, ...note };
	} catch {
		// the lead exists (the service said so); reading it back is a courtesy
	}
	return { phone_number: phoneNumber, campaign_id: campaignId, ...note };
}
