import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { keyValueCollection } from '../../descriptions';
import { updateFieldsCollection } from '../commonFields';
import { readOptionalId, readVariables } from '../parameters';
import { checkE164, checkEnum, refuse } from '../validation';
import { SETTABLE_LEAD_STATUSES, compactPhone, leadId, leadIdField, statusLabel } from './shared';

const properties: INodeProperties[] = [
	leadIdField,
	updateFieldsCollection([
		{
			displayName: 'Campaign ID',
			name: 'campaign_id',
			type: 'number',
			default: 0,
			description: 'Move the lead to this campaign of the account (numeric ID)',
		},
		{
			displayName: 'Phone Number',
			name: 'phone_number',
			type: 'string',
			default: '',
			placeholder: 'e.g. +4915112345678',
			description:
				'New phone number of the lead in E.164 form: "+", country code and number (spaces and dashes are left out)',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'completed',
			description:
				'New status: Completed takes the lead out of the calling queue, Created puts it back',
			options: SETTABLE_LEAD_STATUSES.map((status) => ({
				name: statusLabel(status),
				value: status,
			})),
		},
		keyValueCollection(
			'Variables',
			'variables',
			"Variables to set. Merged into the lead's existing variables: names given here are overwritten, the others are kept.",
		),
		{
			displayName: 'Variables (JSON)',
			name: 'variablesJson',
			type: 'json',
			default: '{}',
			description:
				"Variables to set as a JSON object, merged with the name/value pairs (the pairs win). Merged into the lead's existing variables, not replacing them.",
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = leadId(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	const campaignId = readOptionalId(this, itemIndex, 'Campaign ID', fields.campaign_id);
	if (campaignId) body.campaign_id = campaignId;
	if (fields.phone_number !== undefined && String(fields.phone_number).trim() !== '') {
		const phone = compactPhone(fields.phone_number);
		checkE164(this, itemIndex, 'Phone Number', phone);
		body.phone_number = phone;
	}
	if (fields.status !== undefined && fields.status !== '') {
		checkEnum(this, itemIndex, 'Status', fields.status, SETTABLE_LEAD_STATUSES);
		body.status = fields.status;
	}
	const variables = readVariables(
		this,
		itemIndex,
		'Update Fields → Variables (JSON)',
		fields.variables,
		fields.variablesJson,
	);
	if (Object.keys(variables).length) body.variables = variables;
	if (!Object.keys(body).length) {
		refuse(
			this,
			itemIndex,
			'Update Fields is empty: add Campaign ID, Phone Number, Status or Variables to change',
		);
	}
	const answer = await apiRequest.call(this, 'PUT', `/api/leads/${id}`, { body, itemIndex });
	return { id, updated: true, ...messageOf(answer), ...body };
}
