import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	CONVERSATION_TYPES,
	CONVERSATION_TYPE_OPTIONS,
	dateRangeFilters,
} from '../../descriptions';
import { getManyFields, getManyFiltered } from '../getMany';
import { readOptionalId } from '../parameters';
import { checkEnum } from '../validation';

const properties: INodeProperties[] = getManyFields([
	...dateRangeFilters('conversations'),
	{
		displayName: 'Assistant ID',
		name: 'assistant_id',
		type: 'number',
		default: 0,
		description: 'Only conversations of this assistant (numeric ID)',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'widget',
		description: 'Only conversations of this type',
		options: CONVERSATION_TYPE_OPTIONS,
	},
]);

export const description = updateDisplayOptions(
	{ show: { resource: ['conversation'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyFiltered(this, itemIndex, '/api/user/conversations', (filters, qs) => {
		checkEnum(this, itemIndex, 'Type', filters.type, CONVERSATION_TYPES);
		if (filters.type) qs.type = filters.type;
		const assistantId = readOptionalId(this, itemIndex, 'Assistant ID', filters.assistant_id);
		if (assistantId) qs.assistant_id = assistantId;
	});
}
