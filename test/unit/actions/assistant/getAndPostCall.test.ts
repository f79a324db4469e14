import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

describe('Assistant → Get, Enable Post-Call Webhook; Campaign → Get', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	it('Assistant → Get pages the list until the assistant turns up', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/get').query({ per_page: 100, page: 1 })
			.reply(200, { data: [{ id: 1, name: 'A' }], next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=2` })
			.get('/api/user/assistants/get').query({ per_page: 100, page: 2 })
			.reply(200, { data: [{ id: 7, name: 'Lisa', mode: 'pipeline' }], next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=3` });
		expect(await run({ resource: 'assistant', operation: 'get', assistantId: rl('7') })).toEqual([item({ id: 7, name: 'Lisa', mode: 'pipeline' })]);
		scope.done();
	});

	it('Assistant → Get of an unknown assistant fails naming it, after the last page', async () => {
		nock(TEST_BASE_URL).get('/api/user/assistants/get').query(true).reply(200, { data: [{ id: 1 }], next_page_url: null });
		await expect(run({ resource: 'assistant', operation: 'get', assistantId: rl('9') })).rejects.toThrow('Assistant 9 not found');
	});

	it('Enable Post-Call Webhook updates the assistant with the switch, the URL and the chosen settings', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/5', { is_webhook_active: true, webhook_url: 'https://example.com/ended', send_webhook_only_on_completed: false })
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
			run({ resource: 'assistant', operation: 'enablePostCallWebhook', assistantId: rl('5'), webhookUrl: 'example.com', options: {} }),
		).rejects.toThrow('Webhook URL must be a valid http(s) URL');
	});

	it('Campaign → Get picks the campaign out of the list (bare array or {data}); an unknown one fails naming it', async () => {
		nock(TEST_BASE_URL).get('/api/user/campaigns').reply(200, [{ id: 1, name: 'A' }, { id: 2, name: 'B', status: 'draft' }]);
		expect(await run({ resource: 'campaign', operation: 'get', campaignId: rl('2') })).toEqual([item({ id: 2, name: 'B', status: 'draft' })]);
		nock(TEST_BASE_URL).get('/api/user/campaigns').reply(200, { data: [{ id: 1, name: 'A' }] });
		await expect(run({ resource: 'campaign', operation: 'get', campaignId: rl('3') })).rejects.toThrow('Campaign 3 not found');
	});
});
