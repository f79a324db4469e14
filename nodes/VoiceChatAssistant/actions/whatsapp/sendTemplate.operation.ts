import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	ResourceMapperValue,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isObject } from '../../transport';
import { readLocatorId, readVariables } from '../parameters';
import { checkMaxLength } from '../validation';
import {
	recipientPhone,
	recipientPhoneField,
	senderId,
	senderLocator,
	sendWhatsApp,
	templateLocator,
} from './shared';
import { costNotice } from '../../descriptions';
import { optionsCollection } from '../commonFields';

const properties: INodeProperties[] = [
	costNotice('sendWhatsApp', 'sendWhatsAppNotice'),
	{
		...senderLocator,
		description: `${senderLocator.description} The sender must be online.`,
	},
	templateLocator,
	{
		displayName: 'Template Variables',
		name: 'templateVariables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description:
			'Values of the placeholders ({{1}}, {{2}}, ...) of the chosen template, by variable name',
		typeOptions: {
			loadOptionsDependsOn: ['senderId.value', 'templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getWhatsappTemplateVariables',
				mode: 'add',
				valuesLabel: 'Variables',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError: 'The chosen template has no variables: there is nothing to fill in.',
			},
		},
	},
	recipientPhoneField(
		'Customer to send the template to (reaches this person; costs money: charged to the account balance),',
	),
	optionsCollection([
		{
			displayName: 'Recipient Name',
			name: 'recipientName',
			type: 'string',
			default: '',
			description: 'Name of the customer, stored with the conversation; at most 255 characters',
		},
		{
			displayName: 'Variables (JSON)',
			name: 'variablesJson',
			type: 'json',
			default: '{}',
			description:
				'Template variables as a JSON object, keyed by position ("1", "2", ...) or by variable name, e.g. for a template given by an expression. Merged with the variables above (those win).',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['whatsapp'], operation: ['sendTemplate'] } },
	properties,
);

/** The mapped values of the resource mapper; empty ones are left out. */
function mappedVariables(value: unknown): IDataObject {
	const mapped = isObject(value) ? (value as Partial<ResourceMapperValue>).value : undefined;
	const result: IDataObject = {};
	if (!isObject(mapped)) return result;
	for (const [key, entry] of Object.entries(mapped)) {
		if (entry === undefined || entry === null || entry === '') continue;
		result[key] = typeof entry === 'string' ? entry : String(entry);
	}
	return result;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const sender = senderId(this, itemIndex);
	const template = readLocatorId(this, itemIndex, 'templateId', 'Template');
	const recipient = recipientPhone(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const variables = readVariables(
		this,
		itemIndex,
		'Variables (JSON)',
		undefined,
		options.variablesJson,
	);
	Object.assign(
		variables,
		mappedVariables(this.getNodeParameter('templateVariables', itemIndex, {})),
	);
	const body: IDataObject = {
		sender_id: sender,
		template_id: template,
		recipient_phone: recipient,
	};
	const name = typeof options.recipientName === 'string' ? options.recipientName.trim() : '';
	if (name) {
		checkMaxLength(this, itemIndex, 'Recipient Name', name, 255);
		body.recipient_name = name;
	}
	if (Object.keys(variables).length) body.variables = variables;
	return await sendWhatsApp(this, itemIndex, '/api/user/whatsapp/send', body);
}
