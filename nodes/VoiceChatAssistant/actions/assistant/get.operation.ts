import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, asList } from '../../transport';
import { assistantLocator } from '../../descriptions';
import { assistantId } from './webhooks';
import { simplifyAssistant } from '../simplify';
import type { Simplify } from '../types';

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['get'] } },
	[{ ...assistantLocator, description: 'The assistant to read, with its whole configuration' }],
);

/**
 * The service has no get-one endpoint: the assistant list (100 per page)
 * carries every assistant's whole configuration, so it is read page by page
 * until the assistant turns up.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = assistantId(this, itemIndex);
	for (let page = 1; ; page++) {
		const answer = (await apiRequest.call(this, 'GET', '/api/user/assistants/get', {
			qs: { per_page: 100, page },
			itemIndex,
		})) as IDataObject;
		const list = asList(answer);
		const found = list.find((assistant) => Number(assistant.id) === id);
		if (found) return found;
		if (!answer.next_page_url || list.length === 0 || page >= 1000) break;
	}
	throw new NodeOperationError(this.getNode(), `Assistant ${id} not found`, {
		itemIndex,
		description: 'Check that the assistant exists and belongs to the account of the credential.',
	});
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyAssistant,
	fields:
		'id, uuid, name, status, type, mode, phone number, webhook switch, created and updated at',
};
