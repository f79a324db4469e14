import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { assistantLocator, variablesFields } from '../common.descriptions';
import { checkE164, readVariableParams, toId } from '../validation';

const properties: INodeProperties[] = [
	{ ...assistantLocator, description: 'The outbound assistant that makes the call' },
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +4915112345678',
		description: 'Number to call, in E.164 form: "+", country code and number, digits only',
	},
	...variablesFields('Values the assistant can use in its prompts as {{variable_name}}'),
];

export const description = updateDisplayOptions({ show: { resource: ['call'], operation: ['make'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const assistantId = toId(this, itemIndex, 'Assistant', this.getNodeParameter('assistantId', itemIndex, undefined, { extractValue: true }));
	const phoneNumber = String(this.getNodeParameter('phoneNumber', itemIndex, '')).trim();
	checkE164(this, itemIndex, 'Phone Number', phoneNumber);
	const variables = readVariableParams(this, itemIndex);
	const body: IDataObject = { assistant_id: assistantId, phone_number: phoneNumber, variables };
	return (await apiRequest.call(this, 'POST', '/api/user/make_call', { body, itemIndex })) as IDataObject;
}
