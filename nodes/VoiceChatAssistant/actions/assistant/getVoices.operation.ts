import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsOfValues, returnAllOrLimit } from '../../descriptions';
import { readList } from '../limit';
import { readOptionalId } from '../parameters';
import { checkEnum } from '../validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Engine Mode',
				name: 'mode',
				type: 'options',
				default: 'pipeline',
				description: 'Only voices compatible with this engine mode',
				options: optionsOfValues(['dualplex', 'multimodal', 'pipeline']),
			},
			{
				displayName: 'Language ID',
				name: 'language_id',
				type: 'number',
				default: 0,
				description: 'Only voices of this language (ID from Assistant → Get Languages)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['getVoices'] } },
	[...properties, ...returnAllOrLimit],
);

/** The query of the list, checked before anything is sent. */
function query(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.mode) {
		checkEnum(ctx, itemIndex, 'Engine Mode', filters.mode, ['pipeline', 'multimodal', 'dualplex']);
		qs.mode = filters.mode;
	}
	const languageId = readOptionalId(ctx, itemIndex, 'Language ID', filters.language_id);
	if (languageId) qs.language_id = languageId;
	return qs;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await readList(this, itemIndex, '/api/user/assistants/voices', query(this, itemIndex));
}
