import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { returnAllOrLimit } from '../../descriptions';
import { applyLimit, readLimit } from '../limit';
import { checkEnum } from '../validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Status',
		name: 'senderStatus',
		type: 'options',
		default: 'online',
		description: 'Which senders to list',
		options: [
			{ name: 'All', value: 'all', description: 'Every sender, online or offline' },
			{ name: 'Online', value: 'online', description: 'Only senders that can send now' },
		],
	},
	...returnAllOrLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['whatsapp'], operation: ['getSenders'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const status = this.getNodeParameter('senderStatus', itemIndex, 'online') as string;
	checkEnum(this, itemIndex, 'Status', status, ['online', 'all']);
	const answer = await apiRequest.call(this, 'GET', '/api/user/whatsapp/senders', {
		qs: { status: status || 'online' },
		itemIndex,
	});
	return applyLimit(asList(answer), readLimit(this, itemIndex));
}
