import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { apiRequestAllItems } from '../transport';

/** Pickers of folders and labels (both lists are paginated by the service). */

async function groups(
	ctx: ILoadOptionsFunctions,
	resource: 'folder' | 'label',
): Promise<IDataObject[]> {
	return (await apiRequestAllItems.call(
		ctx,
		`/api/user/${resource}s`,
		{},
		undefined,
	)) as IDataObject[];
}

function asOptions(list: IDataObject[]): INodePropertyOptions[] {
	return list
		.map((entry) => ({ name: String(entry.name), value: entry.id as number }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

function asResults(list: IDataObject[], filter?: string): INodeListSearchResult {
	const needle = filter?.toLowerCase();
	return {
		results: list
			.filter(
				(entry) =>
					!needle ||
					String(entry.name).toLowerCase().includes(needle) ||
					String(entry.id) === needle,
			)
			.map((entry) => ({ name: String(entry.name), value: String(entry.id) })),
	};
}

export const listSearch = {
	async searchFolders(this: ILoadOptionsFunctions, filter?: string) {
		return asResults(await groups(this, 'folder'), filter);
	},
	async searchLabels(this: ILoadOptionsFunctions, filter?: string) {
		return asResults(await groups(this, 'label'), filter);
	},
};

export const loadOptions = {
	async getFolders(this: ILoadOptionsFunctions) {
		return asOptions(await groups(this, 'folder'));
	},
	async getLabels(this: ILoadOptionsFunctions) {
		return asOptions(await groups(this, 'label'));
	},
};
