import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { returnAllOrLimit } from '../../descriptions';
import { applyLimit, readLimit } from '../limit';
import { checkEnum } from '../validation';
import { senderId, senderLocator, whatsappError } from './shared';

const properties: INodeProperties[] = [
	senderLocator,
	{
		displayName: 'Status',
		name: 'templateStatus',
		type: 'options',
		default: 'approved',
		description: 'Which templates to list; only approved templates can be sent',
		options: [
			{
				name: 'All',
				value: 'all',
				description: 'Approved, pending and rejected templates',
			},
			{ name: 'Approved', value: 'approved', description: 'Only templates that can be sent' },
		],
	},
	...returnAllOrLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['whatsapp'], operation: ['getTemplates'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const sender = senderId(this, itemIndex);
	const status = this.getNodeParameter('templateStatus', itemIndex, 'approved') as string;
	checkEnum(this, itemIndex, 'Status', status, ['approved', 'all']);
	let answer: unknown;
	try {
		answer = await apiRequest.call(this, 'GET', `/api/user/whatsapp/senders/${sender}/templates`, {
			qs: { status: status || 'approved' },
			itemIndex,
		});
	} catch (error) {
		throw whatsappError(this, error, itemIndex);
	}
	return applyLimit(asList(answer), readLimit(this, itemIndex));
}
