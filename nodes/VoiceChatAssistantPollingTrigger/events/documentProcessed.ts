import type { IPollFunctions } from 'n8n-workflow';

import { knowledgebaseLocator } from '../../VoiceChatAssistant/descriptions';
import type { DocumentStatuses } from '../documents';
import { documentStatuses, isProcessed, pollDocuments, readDocuments } from '../documents';
import type { EventRun, PollEvent } from './event';
import { emit, locatorText, positiveId } from './event';

export const DOCUMENT_PROCESSED = 'documentProcessed';

/** Document Processed: a document of the knowledgebase finished processing. */
export const documentProcessed: PollEvent = {
	option: {
		name: 'Document Processed',
		action: 'On document processed',
		description: 'A document of a knowledgebase finished processing (active or failed)',
	},
	subtitle: 'Document processed',
	stateKey: 'documents',
	fields: [
		{
			...knowledgebaseLocator,
			displayOptions: { show: { event: [DOCUMENT_PROCESSED] } },
		},
	],
	read(ctx: IPollFunctions): EventRun {
		const kb = positiveId(
			ctx,
			'Knowledgebase',
			locatorText(ctx.getNodeParameter('knowledgebaseId')),
		);
		return {
			key: kb,
			nothingYet: 'No processed document in this knowledgebase yet: add one, then fetch again',
			async test() {
				const newest = (await readDocuments(ctx, kb)).filter(isProcessed).pop();
				return newest ? [ctx.helpers.returnJsonArray([newest])] : undefined;
			},
			started: (state) => !!state.documents,
			async start(state) {
				state.documents = documentStatuses(await readDocuments(ctx, kb));
			},
			async poll(state) {
				const { processed, statuses } = await pollDocuments(
					ctx,
					kb,
					state.documents as DocumentStatuses,
				);
				state.documents = statuses;
				return emit(ctx, processed);
			},
		};
	},
};
