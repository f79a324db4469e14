import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { applyLimit, asList, readLimit, returnAllOrLimit } from '../common.descriptions';

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['getManySmsCapable'] } },
	returnAllOrLimit as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return applyLimit(asList(await apiRequest.call(this, 'GET', '/api/user/phone-numbers', { itemIndex })), readLimit(this, itemIndex));
}
