import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { returnAllOrLimit } from '../../descriptions';
import { applyLimit, readLimit } from '../limit';
import { SIP_TRUNKS_PATH, withoutSecrets } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['sipTrunk'], operation: ['getMany'] } },
	[...returnAllOrLimit] as INodeProperties[],
);

/** The list comes as `{data: [...]}` (docs) or a bare array; both are read. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const list = asList(await apiRequest.call(this, 'GET', SIP_TRUNKS_PATH, { itemIndex }));
	return applyLimit(list, readLimit(this, itemIndex)).map(withoutSecrets);
}
