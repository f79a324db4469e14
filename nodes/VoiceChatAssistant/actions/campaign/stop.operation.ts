import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { campaignLocator } from '../../descriptions';
import { updateStatus } from './shared';

const properties: INodeProperties[] = [
	{
		...campaignLocator,
		description:
			'The campaign to stop. Calls in progress are ended and no further leads are called. Pick it from the list or give its numeric ID.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['stop'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await updateStatus(this, itemIndex, 'stop');
}
