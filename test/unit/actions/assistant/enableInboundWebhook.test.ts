import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, rl, run } from '../helpers';

const ref = { __rl: true, mode: 'list', value: '5' };

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Enable Inbound Webhook sends the assistant and URL', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/assistants/enable-inbound-webhook', {
				assistant_id: 5,
				webhook_url: 'https://example.com/hook',
			})
			.reply(200, { message: 'Inbound webhook enabled', data: [] });
		expect(
			await run({
				resource: 'assistant',
				operation: 'enableInboundWebhook',
				assistantId: ref,
				webhookUrl: 'https://example.com/hook',
			}),
		).toEqual([
			item({
				success: true,
				assistant_id: 5,
				webhook_url: 'https://example.com/hook',
				message: 'Inbound webhook enabled',
			}),
		]);
		scope.done();
	});

	it('Enable Inbound Webhook refuses an invalid URL and shows "Assistant not found"', async () => {
		await expect(
			run({
				resource: 'assistant',
				operation: 'enableInboundWebhook',
				assistantId: ref,
				webhookUrl: 'example.com',
			}),
		).rejects.toThrow('Webhook URL must be a valid http(s) URL');
		nock(TEST_BASE_URL)
			.post('/api/user/assistants/enable-inbound-webhook')
			.reply(404, { message: 'Assistant not found' });
		await expect(
			run({
				resource: 'assistant',
				operation: 'enableInboundWebhook',
				assistantId: ref,
				webhookUrl: 'https://example.com/h',
			}),
		).rejects.toThrow('Assistant not found');
	});
});

describe('Assistant (lists, delete, webhooks)', () => {
	it('Enable Inbound Webhook posts {assistant_id, webhook_url}', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/assistants/enable-inbound-webhook', {
				assistant_id: 5,
				webhook_url: 'https://example.com/in',
			})
			.reply(200, { message: 'Inbound webhook enabled', data: [] });
		expect(
			await run({
				resource: 'assistant',
				operation: 'enableInboundWebhook',
				assistantId: rl('5'),
				webhookUrl: 'https://example.com/in',
			}),
		).toEqual(
			items([
				{
					success: true,
					assistant_id: 5,
					webhook_url: 'https://example.com/in',
					message: 'Inbound webhook enabled',
				},
			]),
		);
		scope.done();
	});

	it('Enable Inbound Webhook refuses a URL that is not http(s) without a request', async () => {
		await expect(
			run({
				resource: 'assistant',
				operation: 'enableInboundWebhook',
				assistantId: rl('5'),
				webhookUrl: 'ftp://example.com',
			}),
		).rejects.toThrow('Webhook URL must be a valid http(s) URL');
	});
});
