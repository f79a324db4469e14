import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit } from '../../descriptions';
import { readList } from '../limit';
import { checkEnum } from '../validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Model Type',
		name: 'modelType',
		type: 'options',
		default: 'llm',
		description:
			'Language models (for the pipeline mode) or the models of the multimodal or dualplex modes',
		options: [
			{ name: 'Dualplex', value: 'dualplex' },
			{ name: 'LLM', value: 'llm' },
			{ name: 'Multimodal', value: 'multimodal' },
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assistant'], operation: ['getModels'] } },
	[...properties, ...returnAllOrLimit],
);

/** The query of the list, checked before anything is sent. */
function query(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const type = ctx.getNodeParameter('modelType', itemIndex, 'llm') as string;
	checkEnum(ctx, itemIndex, 'Model Type', type, ['llm', 'multimodal', 'dualplex']);
	return { type };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await readList(this, itemIndex, '/api/user/assistants/models', query(this, itemIndex));
}
