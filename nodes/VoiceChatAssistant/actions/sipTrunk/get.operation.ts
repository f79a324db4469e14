import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';
import { SIP_TRUNKS_PATH, sipTrunkId, sipTrunkLocator, withoutSecrets } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['sipTrunk'], operation: ['get'] } },
	[sipTrunkLocator] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = sipTrunkId(this, itemIndex);
	return withoutSecrets(
		unwrap(await apiRequest.call(this, 'GET', `${SIP_TRUNKS_PATH}/${id}`, { itemIndex })),
	);
}
