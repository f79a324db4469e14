import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return unwrap(await apiRequest.call(this, 'GET', '/api/user/me', { itemIndex }));
}
