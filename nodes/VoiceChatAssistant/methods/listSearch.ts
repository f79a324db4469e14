import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { apiRequest, asList } from '../transport';
import { getLanguages, getModels, getVoices } from './loadOptions';
import { listOf, toResults } from './lists';

/** One page of 100 assistants (the list is paginated by the service) and the token of the next page. */
async function assistantPage(
	ctx: ILoadOptionsFunctions,
	paginationToken?: string,
): Promise<{ list: IDataObject[]; next?: string }> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const response = (await apiRequest.call(ctx, 'GET', '/api/user/assistants/get', {
		qs: { per_page: 100, page },
	})) as IDataObject;
	return { list: asList(response), next: response.next_page_url ? String(page + 1) : undefined };
}

/** Assistants, one page of 100 at a time (the list is paginated by the service). */
export async function searchAssistants(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { list, next } = await assistantPage(this, paginationToken);
	const result = toResults(
		list,
		filter,
		(a) => `${a.name} (${[a.type, a.mode].filter(Boolean).join(', ')})`,
	);
	if (next) result.paginationToken = next;
	return result;
}

/** Assistants by UUID (conversations address assistants by UUID). */
export async function searchAssistantUuids(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = await assistantPage(this, paginationToken);
	const list = page.list.filter((a) => typeof a.uuid === 'string' && a.uuid);
	const result = toResults(
		list,
		filter,
		(a) => String(a.name),
		(a) => String(a.uuid),
	);
	if (page.next) result.paginationToken = page.next;
	return result;
}

export async function searchKnowledgebases(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return toResults(await listOf(this, '/api/user/knowledgebases'), filter, (kb) => String(kb.name));
}

export async function searchDocuments(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const knowledgebaseId = this.getCurrentNodeParameter('knowledgebaseId', { extractValue: true });
	if (
		knowledgebaseId === undefined ||
		knowledgebaseId === null ||
		String(knowledgebaseId).trim() === ''
	) {
		return { results: [] };
	}
	const list = await listOf(
		this,
		`/api/user/knowledgebases/${encodeURIComponent(String(knowledgebaseId).trim())}/documents`,
	);
	return toResults(list, filter, (d) => `${d.name} (${d.type})`);
}

export async function searchTools(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return toResults(await listOf(this, '/api/user/tools'), filter, (t) => String(t.name));
}

export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return toResults(await listOf(this, '/api/user/campaigns'), filter, (c) => String(c.name));
}

export async function searchPhoneNumbers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return toResults(
		await listOf(this, '/api/user/phone-numbers/all'),
		filter,
		(p) => `${p.phone_number}${p.type_label ? ` (${p.type_label})` : p.type ? ` (${p.type})` : ''}`,
	);
}

/** The pickers of Assistant → Create, as searchable lists: the option lists, filtered by what the user typed. */
function asResults(options: INodePropertyOptions[], filter?: string): INodeListSearchResult {
	return toResults(
		options as unknown as IDataObject[],
		filter,
		(o) => String(o.name),
		(o) => String(o.value),
	);
}

export async function searchLanguages(this: ILoadOptionsFunctions, filter?: string) {
	return asResults(await getLanguages.call(this), filter);
}

export async function searchVoices(this: ILoadOptionsFunctions, filter?: string) {
	return asResults(await getVoices.call(this), filter);
}

export async function searchModels(this: ILoadOptionsFunctions, filter?: string) {
	return asResults(await getModels.call(this), filter);
}
