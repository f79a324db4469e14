import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { run } from '../helpers';
import {
	dual,
	fields,
	fieldsBody,
	minimal,
	modeExtras,
	multi,
	pipe,
	record,
	requiredBody,
} from './fixtures';
import { itRefuses } from './refusals';

describe('Assistant → Create and Update', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	describe.each(['pipeline', 'multimodal', 'dualplex'])('%s', (mode) => {
		it('minimal create sends exactly the required fields', async () => {
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/assistant', requiredBody(mode))
				.reply(201, { message: 'Assistant created', data: { ...record, mode } });
			expect(await run(minimal[mode])).toEqual([
				{ json: { ...record, mode, message: 'Assistant created' }, pairedItem: { item: 0 } },
			]);
			scope.done();
		});

		it('maximal create sends every field, converted', async () => {
			const [extraIn, extraOut] = modeExtras[mode];
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/assistant', { ...requiredBody(mode), ...fieldsBody, ...extraOut })
				.reply(201, { message: 'Assistant created', data: { ...record, mode } });
			await run({ ...minimal[mode], additionalFields: { ...fields, ...extraIn } });
			scope.done();
		});
	});

	it('shows the service 422 field by field', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/assistant')
			.reply(422, {
				message: 'Validation failed',
				errors: { voice_id: ['The voice is not compatible with the engine mode.'] },
			});
		await expect(run(minimal.multimodal)).rejects.toThrow(
			'Validation failed: voice_id: The voice is not compatible with the engine mode.',
		);
	});

	// the required fields and the mode, checked by create.operation.ts itself
	itRefuses([
		['missing name', { ...pipe, name: '' }, 'Name is required'],
		['missing language', { ...pipe, languageId: '' }, 'Language is required'],
		['missing voice', { ...pipe, voiceId: '' }, 'Voice is required'],
		['missing timezone', { ...pipe, timezone: '' }, 'Timezone is required'],
		['missing initial message', { ...pipe, initialMessage: '' }, 'Initial Message is required'],
		['missing system prompt', { ...pipe, systemPrompt: '' }, 'System Prompt is required'],
		['pipeline without LLM model', { ...pipe, llmModelId: '' }, 'LLM Model is required'],
		[
			'multimodal without model',
			{ ...multi, multimodalModelId: '' },
			'Multimodal Model is required',
		],
		['dualplex without model', { ...dual, multimodalModelId: '' }, 'Multimodal Model is required'],
		[
			'unknown mode',
			{ ...pipe, mode: 'turbo' },
			'Mode must be one of pipeline, multimodal, dualplex',
		],
	]);
});
