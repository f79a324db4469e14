import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest, asList } from '../VoiceChatAssistant/transport';

/**
 * Document Processed: a document of the knowledgebase left `processing` (it
 * is `active`, or `failed`). The documents of a knowledgebase are one list,
 * so a poll costs one request. The state keeps each document's last status.
 */

export type DocumentStatuses = Record<string, string>;

const WORKING = ['processing', 'pending', 'queued'];

export async function readDocuments(
	ctx: IPollFunctions,
	knowledgebaseId: number,
): Promise<IDataObject[]> {
	return asList(
		await apiRequest.call(ctx, 'GET', `/api/user/knowledgebases/${knowledgebaseId}/documents`),
	);
}

export function isProcessed(document: IDataObject): boolean {
	return !WORKING.includes(String(document.status));
}

export function documentStatuses(documents: IDataObject[]): DocumentStatuses {
	return Object.fromEntries(documents.map((d) => [String(d.id), String(d.status)]));
}

/** Documents processed since the last poll (new ones that arrive processed count too). */
export async function pollDocuments(
	ctx: IPollFunctions,
	knowledgebaseId: number,
	known: DocumentStatuses,
): Promise<{ processed: IDataObject[]; statuses: DocumentStatuses }> {
	const documents = await readDocuments(ctx, knowledgebaseId);
	const listed = new Set(documents.map((document) => String(document.id)));
	for (const [id, status] of Object.entries(known)) {
		if (!listed.has(id) && !isProcessed({ status })) {
			ctx.logger.warn(
				`Voice Chat Assistant Polling Trigger: document ${id} of knowledgebase ${knowledgebaseId} is no longer listed before it was processed: given up, it is not emitted`,
			);
		}
	}
	const processed = documents.filter((document) => {
		const before = known[String(document.id)];
		return isProcessed(document) && (before === undefined || !isProcessed({ status: before }));
	});
	return { processed, statuses: documentStatuses(documents) };
}
