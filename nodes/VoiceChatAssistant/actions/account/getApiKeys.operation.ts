import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';

export const description: INodeProperties[] = [];

/** The metadata of a key the service documents; a key's token value is never passed on. */
const API_KEY_FIELDS = ['id', 'name', 'last_used_at', 'created_at'];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const response = (await apiRequest.call(this, 'GET', '/api/user/api-keys', {
		itemIndex,
	})) as IDataObject;
	const keys = Array.isArray(response?.api_keys) ? (response.api_keys as IDataObject[]) : [];
	return keys.map((key) =>
		Object.fromEntries(API_KEY_FIELDS.filter((field) => field in key).map((f) => [f, key[f]])),
	);
}
