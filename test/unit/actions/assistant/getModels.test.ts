import { run } from '../helpers';
import { describeListOperation } from './listCases';

describeListOperation(
	[
		[
			'getModels',
			'/api/user/assistants/models',
			{ modelType: 'multimodal' },
			{ type: 'multimodal' },
		],
	],
	() => {
		it('Get Models refuses an unknown type without a request', async () => {
			await expect(
				run({ resource: 'assistant', operation: 'getModels', modelType: 'tts', returnAll: true }),
			).rejects.toThrow('Model Type must be one of');
		});
	},
);
