import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { toId } from '../validation';

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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = toId(this, itemIndex, 'Call ID', this.getNodeParameter('callId', itemIndex));
	return unwrap(await apiRequest.call(this, 'GET', `/api/user/calls/${id}`, { itemIndex }));
}
