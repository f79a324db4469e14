import { listOperation } from '../listOperation';
import { checkEnum } from '../validation';

export const { description, execute } = listOperation(
	'assistant',
	'getModels',
	'/api/user/assistants/models',
	[
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
	],
	(ctx, itemIndex) => {
		const type = ctx.getNodeParameter('modelType', itemIndex, 'llm') as string;
		checkEnum(ctx, itemIndex, 'Model Type', type, ['llm', 'multimodal', 'dualplex']);
		return { type };
	},
);
