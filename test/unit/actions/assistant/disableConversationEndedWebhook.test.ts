import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

describe('Assistant → Disable Conversation-Ended Webhook', () => {
	it('Disable posts {assistant_id}; an unknown assistant fails with the service message', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/assistants/disable-conversation-ended-webhook', { assistant_id: 5 })
			.reply(200, { message: 'Conversation ended webhook disabled successfully', data: [] });
		expect(
			await run({
				resource: 'assistant',
				operation: 'disableConversationEndedWebhook',
				assistantId: rl('5'),
			}),
		).toEqual([
			item({
				success: true,
				assistant_id: 5,
				message: 'Conversation ended webhook disabled successfully',
			}),
		]);
		scope.done();
		nock(TEST_BASE_URL)
			.post('/api/user/assistants/disable-conversation-ended-webhook')
			.reply(404, { message: 'Assistant not found' });
		await expect(
			run({
				resource: 'assistant',
				operation: 'disableConversationEndedWebhook',
				assistantId: rl('9'),
			}),
		).rejects.toThrow('Assistant not found');
	});
});
