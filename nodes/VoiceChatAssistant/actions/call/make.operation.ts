import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import {
	assistantLocator,
	phoneNumberField,
	variablesFields,
	costNotice,
} from '../../descriptions';
import type { OutputItems } from '../types';
import { simplifyCall, simplifyOutput } from '../simplify';
import { readLocatorId, readVariableParams } from '../parameters';
import { checkE164, checkNumberRange } from '../validation';
import { callOutput, recordingFields, waitForResult } from './result';
import { optionsCollection } from '../commonFields';

const properties: INodeProperties[] = [
	costNotice('makeCall', 'makeCallNotice'),
	{ ...assistantLocator, description: 'The outbound assistant that makes the call' },
	phoneNumberField('Number to call,'),
	...variablesFields('Values the assistant can use in its prompts as {{variable_name}}'),
	optionsCollection([
		{
			displayName: 'Wait for Result',
			name: 'waitForResult',
			type: 'boolean',
			default: false,
			description:
				'Whether to wait until the call has ended (completed, no answer, busy, failed, ...) and output the final call with transcript and extracted variables',
		},
		{
			displayName: 'Timeout (Minutes)',
			name: 'timeoutMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 120 },
			default: 15,
			description:
				'How long to wait for the call to end; then the item fails, naming the call ID (the call goes on)',
			displayOptions: { show: { waitForResult: [true] } },
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description:
				'Whether to return only the fields of the final call that matter (ID, type, status, duration, assistant, client number, created at, extracted variables, summary, transcript as one string) instead of the whole record',
			displayOptions: { show: { waitForResult: [true] } },
		},
		...recordingFields.map((field) => ({
			...field,
			displayOptions: {
				show: { waitForResult: [true], ...(field.displayOptions?.show ?? {}) },
			},
		})),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['make'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | OutputItems> {
	const assistantId = readLocatorId(this, itemIndex, 'assistantId', 'Assistant');
	const phoneNumber = String(this.getNodeParameter('phoneNumber', itemIndex, '')).trim();
	checkE164(this, itemIndex, 'Phone Number', phoneNumber);
	const variables = readVariableParams(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const wait = options.waitForResult === true;
	const minutes = options.timeoutMinutes ?? 15;
	if (wait) checkNumberRange(this, itemIndex, 'Timeout (Minutes)', minutes, 1, 120);
	const body: IDataObject = { assistant_id: assistantId, phone_number: phoneNumber, variables };
	const started = (await apiRequest.call(this, 'POST', '/api/user/make_call', {
		body,
		itemIndex,
		retry: 'sendOnce',
		checkBeforeRetry: `look for a call to ${phoneNumber} in Call → Get Many`,
	})) as IDataObject;
	if (!wait) return started;
	const call = await waitForResult(
		this,
		itemIndex,
		Number(started.call_id),
		Number(minutes) * 60_000,
	);
	const output = await callOutput(this, itemIndex, call);
	if (options.simplify === false) return output;
	return simplifyOutput(output, simplifyCall) as IDataObject | OutputItems;
}
