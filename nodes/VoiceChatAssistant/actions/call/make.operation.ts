import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { assistantLocator, phoneNumberField, variablesFields } from '../../descriptions';
import { checkE164, readLocatorId, readVariableParams } from '../validation';

const properties: INodeProperties[] = [
	{ ...assistantLocator, description: 'The outbound assistant that makes the call' },
	phoneNumberField('Number to call,'),
	...variablesFields('Values the assistant can use in its prompts as {{variable_name}}'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['make'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const assistantId = readLocatorId(this, itemIndex, 'assistantId', 'Assistant');
	const phoneNumber = String(this.getNodeParameter('phoneNumber', itemIndex, '')).trim();
	checkE164(this, itemIndex, 'Phone Number', phoneNumber);
	const variables = readVariableParams(this, itemIndex);
	const body: IDataObject = { assistant_id: assistantId, phone_number: phoneNumber, variables };
	return (await apiRequest.call(this, 'POST', '/api/user/make_call', {
		body,
		itemIndex,
	})) as IDataObject;
}
