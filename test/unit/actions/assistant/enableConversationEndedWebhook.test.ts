import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

describe('Assistant → Enable Conversation-Ended Webhook', () => {
	it('Enable posts {assistant_id, webhook_url}', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/assistants/enable-conversation-ended-webhook', {
				assistant_id: 5,
				webhook_url: 'https://example.com/ended',
			})
			.reply(200, { message: 'Conversation ended webhook enabled successfully', data: [] });
		expect(
			await run({
				resource: 'assistant',
				operation: 'enableConversationEndedWebhook',
				assistantId: rl('5'),
				webhookUrl: 'https://example.com/ended',
			}),
		).toEqual([
			item({
				success: true,
				assistant_id: 5,
				webhook_url: 'https://example.com/ended',
				message: 'Conversation ended webhook enabled successfully',
			}),
		]);
		scope.done();
	});

	it('Enable refuses a URL that is not http(s) before sending', async () => {
		await expect(
			run({
				resource: 'assistant',
				operation: 'enableConversationEndedWebhook',
				assistantId: rl('5'),
				webhookUrl: 'example.com/x',
			}),
		).rejects.toThrow('Webhook URL must be a valid http(s) URL');
	});
});
