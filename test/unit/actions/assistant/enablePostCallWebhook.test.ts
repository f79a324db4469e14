import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

describe('Assistant → Enable Post-Call Webhook', () => {
	it('Enable Post-Call Webhook updates the assistant with the switch, the URL and the chosen settings', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/5', {
				is_webhook_active: true,
				webhook_url: 'https://example.com/ended',
				send_webhook_only_on_completed: false,
			})
			.reply(200, { message: 'Assistant updated successfully', data: { id: 5 } });
		expect(
			await run({
				resource: 'assistant',
				operation: 'enablePostCallWebhook',
				assistantId: rl('5'),
				webhookUrl: 'https://example.com/ended',
				options: { send_webhook_only_on_completed: false },
			}),
		).toEqual([
			item({
				success: true,
				assistant_id: 5,
				is_webhook_active: true,
				webhook_url: 'https://example.com/ended',
				send_webhook_only_on_completed: false,
				message: 'Assistant updated successfully',
			}),
		]);
		scope.done();
		await expect(
			run({
				resource: 'assistant',
				operation: 'enablePostCallWebhook',
				assistantId: rl('5'),
				webhookUrl: 'example.com',
				options: {},
			}),
		).rejects.toThrow('Webhook URL must be a valid http(s) URL');
	});
});
