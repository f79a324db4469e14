import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OutputItems, Simplify } from '../types';
import { toId } from '../validation';
import { callOutput, readCall, recordingFields } from './result';
import { simplifyCall } from '../simplify';

const properties: INodeProperties[] = [
	{
		displayName: 'Call ID',
		name: 'callId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1234',
		description:
			'Numeric ID of the call, as returned by Call → Get Many, Call → Make or the trigger (field ID)',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: recordingFields,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | OutputItems> {
	const id = toId(this, itemIndex, 'Call ID', this.getNodeParameter('callId', itemIndex));
	return await callOutput(this, itemIndex, await readCall(this, itemIndex, id));
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyCall,
	fields:
		'id, type, status, duration, assistant, client number, created at, extracted variables, summary, transcript as one string',
};
