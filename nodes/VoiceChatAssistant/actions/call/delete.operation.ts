import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, messageOf } from '../../transport';
import { callId, callIdField } from './shared';

const properties: INodeProperties[] = [
	callIdField(
		'Numeric ID of the call to delete, permanently: the record, its transcript, data and recording are removed (e.g. for a GDPR erasure request). As returned by Call → Get Many, Call → Make or the trigger (field ID).',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = callId(this, itemIndex);
	const answer = await apiRequest.call(this, 'DELETE', `/api/user/calls/${id}`, { itemIndex });
	return { deleted: true, id, ...messageOf(answer) };
}
