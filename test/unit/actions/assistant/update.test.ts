import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { run } from '../helpers';
import { record, update } from './fixtures';
import { itRefuses } from './refusals';

describe('Assistant → Create and Update', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('update clears three nullable fields and empties two lists', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/9', {
				name: 'Lisa 2',
				knowledgebase_id: null,
				phone_number_id: null,
				voice_mail_message: null,
				tool_ids: [],
				post_call_schema: [],
			})
			.reply(200, {
				message: 'Assistant updated',
				data: { ...record, status: 'active', name: 'Lisa 2' },
			});
		const output = await run({
			resource: 'assistant',
			operation: 'update',
			assistantId: { __rl: true, mode: 'id', value: '9' },
			mode: 'keep',
			updateFields: { name: 'Lisa 2' },
			clearFields: ['knowledgebase_id', 'phone_number_id', 'voice_mail_message'],
			emptyCollections: ['tool_ids', 'post_call_schema'],
		});
		expect(output[0].json).toEqual({
			...record,
			status: 'active',
			name: 'Lisa 2',
			message: 'Assistant updated',
		});
		scope.done();
	});

	it('update to another mode sends the mode and its model', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/9', { mode: 'multimodal', multimodal_model_id: 11 })
			.reply(200, { message: 'ok', data: record });
		await run({
			resource: 'assistant',
			operation: 'update',
			assistantId: { __rl: true, mode: 'id', value: '9' },
			mode: 'multimodal',
			updateFields: { multimodal_model_id: 11 },
		});
		scope.done();
	});

	// Clear Fields, Empty Lists and the empty update, checked by update.operation.ts itself
	itRefuses([
		[
			'update: set and clear',
			update({ knowledgebase_id: 3 }, { clearFields: ['knowledgebase_id'] }),
			'Knowledgebase is both set and cleared',
		],
		[
			'update: set and empty',
			update({ tool_ids: ['7'] }, { emptyCollections: ['tool_ids'] }),
			'Mid Call Tools is both set and emptied',
		],
		['update: nothing', update({}), 'Nothing to update'],
	]);
});
