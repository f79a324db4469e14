import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit } from '../../descriptions';
import { readList } from '../limit';
import { checkEnum } from '../validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Assistant Type',
		name: 'assistantType',
		type: 'options',
		default: 'inbound',
		description:
			'For inbound assistants, caller-ID numbers and numbers used by another inbound assistant are left out',
		options: [
			{ name: 'Inbound', value: 'inbound' },
			{ name: 'Outbound', value: 'outbound' },
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['getAssignablePhoneNumbers'] } },
	[...properties, ...returnAllOrLimit],
);

/** The query of the list, checked before anything is sent. */
function query(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const type = ctx.getNodeParameter('assistantType', itemIndex, 'inbound') as string;
	checkEnum(ctx, itemIndex, 'Assistant Type', type, ['inbound', 'outbound']);
	return { type };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await readList(
		this,
		itemIndex,
		'/api/user/assistants/phone-numbers',
		query(this, itemIndex),
	);
}
