import type { IExecuteFunctions } from 'n8n-workflow';

import { knowledgebaseId } from '../knowledgebase/shared';
import { readLocatorId } from '../parameters';

/** Path of a document (or of the documents of a knowledgebase). */
export function documentPath(
	ctx: IExecuteFunctions,
	itemIndex: number,
	withDocument = true,
): string {
	const kb = knowledgebaseId(ctx, itemIndex);
	const base = `/api/user/knowledgebases/${kb}/documents`;
	if (!withDocument) return base;
	const doc = readLocatorId(ctx, itemIndex, 'documentId', 'Document');
	return `${base}/${doc}`;
}
