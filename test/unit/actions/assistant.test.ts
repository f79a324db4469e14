import nock from 'nock';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';

const run = async (parameters: any) => (await router.call(createContext({ parameters }).context))[0];
const item = (json: unknown) => ({ json, pairedItem: { item: 0 } });
const ref = { __rl: true, mode: 'list', value: '5' };

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Get Many reads the paginated list', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/get').query({ per_page: '100', page: '1' })
			.reply(200, { data: [{ id: 1 }], next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=2` })
			.get('/api/user/assistants/get').query({ per_page: '100', page: '2' })
			.reply(200, { data: [{ id: 2 }], next_page_url: null });
		expect(await run({ resource: 'assistant', operation: 'getMany', returnAll: true })).toEqual([item({ id: 1 }), item({ id: 2 })]);
		scope.done();
	});

	it.each([
		['getOutbound', '/api/user/assistants/outbound', {}, {}],
		['getLanguages', '/api/user/assistants/languages', {}, {}],
		['getSynthesizerProviders', '/api/user/assistants/synthesizer-providers', {}, {}],
		['getTranscriberProviders', '/api/user/assistants/transcriber-providers', {}, {}],
		['getModels', '/api/user/assistants/models', { modelType: 'multimodal' }, { type: 'multimodal' }],
		['getAssignablePhoneNumbers', '/api/user/assistants/phone-numbers', { assistantType: 'outbound' }, { type: 'outbound' }],
		['getVoices', '/api/user/assistants/voices', { filters: { mode: 'dualplex', language_id: 2 } }, { mode: 'dualplex', language_id: '2' }],
		['getVoices', '/api/user/assistants/voices', { filters: {} }, {}],
	])('%s reads %s with the query %j', async (operation, path, parameters, query) => {
		const scope = nock(TEST_BASE_URL).get(path).query(query).reply(200, [{ id: 1 }, { id: 2 }, { id: 3 }]);
		expect(await run({ resource: 'assistant', operation, returnAll: false, limit: 2, ...parameters })).toEqual([item({ id: 1 }), item({ id: 2 })]);
		scope.done();
	});

	it('Get Voices refuses an unknown engine mode', async () => {
		await expect(run({ resource: 'assistant', operation: 'getVoices', returnAll: true, filters: { mode: 'turbo' } })).rejects.toThrow(
			'Engine Mode must be one of pipeline, multimodal, dualplex, got "turbo"',
		);
	});

	it('Delete sends DELETE and outputs what was deleted', async () => {
		nock(TEST_BASE_URL).delete('/api/user/assistant/5').reply(200, { message: 'Assistant deleted successfully' });
		expect(await run({ resource: 'assistant', operation: 'delete', assistantId: ref })).toEqual([item({ deleted: true, id: 5, message: 'Assistant deleted successfully' })]);
	});

	it('Enable Inbound Webhook sends the assistant and URL', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/assistants/enable-inbound-webhook', { assistant_id: 5, webhook_url: 'https://example.com/hook' })
			.reply(200, { message: 'Inbound webhook enabled', data: [] });
		expect(await run({ resource: 'assistant', operation: 'enableInboundWebhook', assistantId: ref, webhookUrl: 'https://example.com/hook' })).toEqual([
			item({ success: true, assistant_id: 5, webhook_url: 'https://example.com/hook', message: 'Inbound webhook enabled' }),
		]);
		scope.done();
	});

	it.each([
		['disableInboundWebhook', '/api/user/assistants/disable-inbound-webhook'],
		['disablePostCallWebhook', '/api/user/assistants/disable-webhook'],
	])('%s sends {assistant_id}', async (operation, path) => {
		const scope = nock(TEST_BASE_URL).post(path, { assistant_id: 5 }).reply(200, { message: 'Disabled' });
		expect(await run({ resource: 'assistant', operation, assistantId: ref })).toEqual([item({ success: true, assistant_id: 5, message: 'Disabled' })]);
		scope.done();
	});

	it('Enable Inbound Webhook refuses an invalid URL and shows "Assistant not found"', async () => {
		await expect(run({ resource: 'assistant', operation: 'enableInboundWebhook', assistantId: ref, webhookUrl: 'example.com' })).rejects.toThrow(
			'Webhook URL must be a valid http(s) URL',
		);
		nock(TEST_BASE_URL).post('/api/user/assistants/enable-inbound-webhook').reply(404, { message: 'Assistant not found' });
		await expect(run({ resource: 'assistant', operation: 'enableInboundWebhook', assistantId: ref, webhookUrl: 'https://example.com/h' })).rejects.toThrow(
			'Assistant not found',
		);
	});
});
