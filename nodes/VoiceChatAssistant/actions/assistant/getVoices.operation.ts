import type { IDataObject } from 'n8n-workflow';

import { listOperation } from '../listOperation';
import { checkEnum, toId } from '../validation';

export const { description, execute } = listOperation(
	'assistant',
	'getVoices',
	'/api/user/assistants/voices',
	[
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
					options: [
						{ name: 'Dualplex', value: 'dualplex' },
						{ name: 'Multimodal', value: 'multimodal' },
						{ name: 'Pipeline', value: 'pipeline' },
					],
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
	],
	(ctx, itemIndex) => {
		const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs: IDataObject = {};
		if (filters.mode) {
			checkEnum(ctx, itemIndex, 'Engine Mode', filters.mode, [
				'pipeline',
				'multimodal',
				'dualplex',
			]);
			qs.mode = filters.mode;
		}
		if (filters.language_id)
			qs.language_id = toId(ctx, itemIndex, 'Language ID', filters.language_id);
		return qs;
	},
);
