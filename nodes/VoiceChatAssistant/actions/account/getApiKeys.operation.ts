import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const response = (await apiRequest.call(this, 'GET', '/api/user/api-keys', {
		itemIndex,
	})) as IDataObject;
	return Array.isArray(response?.api_keys) ? (response.api_keys as IDataObject[]) : [];
}
