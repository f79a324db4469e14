import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { returnAllOrLimit } from '../../descriptions';
import { readLimit } from '../limit';
import { simplifyAssistant } from '../simplify';
import type { Simplify } from '../types';

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['getMany'] } },
	returnAllOrLimit as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return (await apiRequestAllItems.call(
		this,
		'/api/user/assistants/get',
		{},
		readLimit(this, itemIndex),
		itemIndex,
	)) as IDataObject[];
}

/** What Simplify (on by default) keeps of each record. */
export const simplify: Simplify = {
	record: simplifyAssistant,
	fields:
		'id, uuid, name, status, type, mode, phone number, webhook switch, created and updated at',
};
