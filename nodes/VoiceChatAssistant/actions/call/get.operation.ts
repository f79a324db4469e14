import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OutputItems, Simplify } from '../types';
import { callId, callIdField } from './shared';
import { callOutput, readCall, recordingFields } from './result';
import { simplifyCall } from '../simplify';
import { optionsCollection } from '../commonFields';

const properties: INodeProperties[] = [
	callIdField(
		'Numeric ID of the call, as returned by Call → Get Many, Call → Make or the trigger (field ID)',
	),
	optionsCollection(recordingFields),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | OutputItems> {
	const id = callId(this, itemIndex);
	return await callOutput(this, itemIndex, await readCall(this, itemIndex, id));
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyCall,
	fields:
		'id, type, status, duration, assistant, client number, created at, extracted variables, summary, transcript as one string',
};
