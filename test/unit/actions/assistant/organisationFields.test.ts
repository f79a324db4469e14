/**
 * The assistant fields the vendor's docs add to the API contract: folder, labels, filler phrases and the
 * chat settings, in Create and Update.
 */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { run } from '../helpers';
import { record, update } from './fixtures';

describe('Assistant → folder, labels, filler phrases, chat settings', () => {
	it('Update sends folder, labels, filler phrases (one per line) and the chat settings', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/9', {
				folder_id: 2,
				label_ids: [1, 3],
				filler_config: { positive: ['Great!', 'Perfect.'], question: ['Good question.'] },
				conversation_inactivity_timeout: 45,
				conversation_ended_retrigger: true,
				conversation_ended_webhook_url: 'https://example.com/ended',
			})
			.reply(200, { message: 'ok', data: record });
		await run(
			update({
				folder_id: '2',
				label_ids: ['1', 3],
				filler_config: { positive: 'Great!\n\n Perfect. \n', question: 'Good question.' },
				conversation_inactivity_timeout: 45,
				conversation_ended_retrigger: true,
				conversation_ended_webhook_url: 'https://example.com/ended',
			}),
		);
		scope.done();
	});

	it('Update clears the folder and the chat webhook (null) and empties the labels ([])', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/9', {
				folder_id: null,
				conversation_ended_webhook_url: null,
				label_ids: [],
			})
			.reply(200, { message: 'ok', data: record });
		await run(
			update(
				{},
				{
					clearFields: ['folder_id', 'conversation_ended_webhook_url'],
					emptyCollections: ['label_ids'],
				},
			),
		);
		scope.done();
	});

	it.each([
		[{ conversation_inactivity_timeout: 0 }, /Conversation Inactivity Timeout.*1.*1440/],
		[{ conversation_inactivity_timeout: 1441 }, /Conversation Inactivity Timeout.*1.*1440/],
		[
			{ conversation_ended_webhook_url: 'not a url' },
			/Conversation-Ended Webhook URL must be a valid http\(s\) URL/,
		],
		[{ folder_id: 'sales' }, /Folder/],
		[{ label_ids: ['1', 'x'] }, /Label/],
	])('Update refuses %j before sending', async (updateFields, message) => {
		await expect(run(update(updateFields))).rejects.toThrow(message);
	});

	it('Create sends the folder and labels with the required fields', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(
				'/api/user/assistant',
				(body) =>
					body.folder_id === 1 &&
					JSON.stringify(body.label_ids) === '[2]' &&
					body.conversation_inactivity_timeout === 1440,
			)
			.reply(201, { message: 'Assistant created successfully', data: record });
		await run({
			resource: 'assistant',
			operation: 'create',
			name: 'Lisa',
			type: 'outbound',
			mode: 'pipeline',
			llmModelId: 2,
			voiceId: 1,
			languageId: 1,
			timezone: 'Europe/Berlin',
			initialMessage: 'Hi',
			systemPrompt: 'Be kind.',
			additionalFields: { folder_id: 1, label_ids: [2], conversation_inactivity_timeout: 1440 },
		});
		scope.done();
	});
});
