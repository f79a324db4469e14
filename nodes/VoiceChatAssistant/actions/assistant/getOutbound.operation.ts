import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit } from '../../descriptions';
import { readList } from '../limit';
import { simplifyAssistant } from '../simplify';
import type { Simplify } from '../types';

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['getOutbound'] } },
	returnAllOrLimit,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await readList(this, itemIndex, '/api/user/assistants/outbound');
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyAssistant,
	fields:
		'id, uuid, name, status, type, mode, phone number, webhook switch, created and updated at',
};
