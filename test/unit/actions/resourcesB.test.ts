/**
 * Lead, Call, Conversation and Assistant (all but create/update): the exact
 * request of each operation and the items it outputs.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../helpers/context';

const ASSISTANT_UUID = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const CONVERSATION_UUID = '5a1d0c3e-2b4f-4e6a-8c9d-0e1f2a3b4c5d';
const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });

async function run(parameters: IDataObject, items?: Array<{ json: IDataObject }>) {
	const { context } = createContext({ parameters, items });
	const [output] = await router.call(context);
	return output;
}
const items = (list: IDataObject[]) => list.map((json) => ({ json, pairedItem: { item: 0 } }));

beforeEach(() => {
	nock.disableNetConnect();
	resetLimiters();
});
afterEach(() => nock.cleanAll());

describe('Lead → Create', () => {
	const lead = { id: 11, campaign_id: 7, phone_number: '+4915112345678', status: 'created', secondary_contacts: [] };
	const duplicate = {
		message: 'The given data was invalid.',
		errors: { phone_number: ['The phone number has already been taken in this campaign.'] },
	};
	const base = { resource: 'lead', operation: 'create', campaignId: rl('7'), phoneNumber: '+4915112345678' };

	it('sends campaign, phone, variables and secondary contacts (pairs and JSON) and outputs the lead', async () => {
		const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.post('/api/user/lead', {
				phone_number: '+4915112345678',
				campaign_id: 7,
				variables: { name: 'Ada', plan: 'gold' },
				secondary_contacts: [
					{ phone_number: '+4930123456789', variables: { role: 'office', floor: '2' } },
					{ phone_number: '+4930987654321', variables: {} },
				],
			})
			.reply(200, { message: 'Lead created successfully', data: lead });
		const output = await run({
			...base,
			campaignId: rl('7', 'id'),
			variables: { values: [{ key: 'name', value: 'Ada' }] },
			variablesJson: '{"plan":"gold"}',
			secondaryContacts: {
				contacts: [
					{ phoneNumber: '+4930123456789', variables: { values: [{ key: 'floor', value: '2' }] }, variablesJson: '{"role":"office"}' },
					{ phoneNumber: '+4930987654321', variablesJson: '{}' },
				],
			},
		});
		expect(output).toEqual(items([lead]));
		scope.done();
	});

	it('On Duplicate = Fail (default) fails with the service text and sends no allow flag', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/lead', { phone_number: '+4915112345678', campaign_id: 7 }).reply(422, duplicate);
		await expect(run(base)).rejects.toThrow('already been taken');
		scope.done();
	});

	it('On Duplicate = Skip outputs the input item with skipped: true and the reason', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/lead', { phone_number: '+4915112345678', campaign_id: 7 }).reply(422, duplicate);
		const output = await run({ ...base, options: { onDuplicate: 'skip' } }, [{ json: { row: 3, phone: '+4915112345678' } }]);
		expect(output).toEqual(
			items([
				{
					row: 3,
					phone: '+4915112345678',
					skipped: true,
					reason: 'The given data was invalid.: phone_number: The phone number has already been taken in this campaign.',
				},
			]),
		);
		scope.done();
	});

	it('On Duplicate = Skip does not swallow other 422s', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/lead')
			.reply(422, { message: 'The given data was invalid.', errors: { campaign_id: ['The selected campaign id is invalid.'] } });
		await expect(run({ ...base, options: { onDuplicate: 'skip' } })).rejects.toThrow('campaign_id');
	});

	it('On Duplicate = Allow sends allow_dupplicate: true, spelled as the service spells it', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/lead', { phone_number: '+4915112345678', campaign_id: 7, allow_dupplicate: true })
			.reply(200, { message: 'Lead created successfully', data: lead });
		expect(await run({ ...base, options: { onDuplicate: 'allow' } })).toEqual(items([lead]));
		scope.done();
	});

	it.each([['015112345678'], ['+49 151 12345678'], ['']])('refuses the phone %j without a request', async (phone) => {
		const scope = nock(TEST_BASE_URL).post('/api/user/lead').reply(200, { data: lead });
		await expect(run({ ...base, phoneNumber: phone })).rejects.toThrow('Phone Number must be a phone number in E.164 form');
		expect(scope.isDone()).toBe(false);
	});

	it('refuses a secondary contact phone without a request', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/lead').reply(200, { data: lead });
		await expect(run({ ...base, secondaryContacts: { contacts: [{ phoneNumber: '0301234' }] } })).rejects.toThrow(
			'Secondary Contacts → Contact 1 → Phone Number must be a phone number in E.164 form',
		);
		expect(scope.isDone()).toBe(false);
	});
});

describe('Call', () => {
	const call = (id: number) => ({ id, type: 'outbound', status: 'completed' });

	it('Get Many sends every filter (dates as YYYY-MM-DD) and follows the pages', async () => {
		const qs = {
			status: 'no-answer',
			type: 'outbound',
			phone_number: '+4915112345678',
			assistant_id: '3',
			campaign_id: '9',
			date_from: '2026-11-01',
			date_to: '2026-11-21',
		};
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query({ ...qs, per_page: '100', page: '1' })
			.reply(200, { current_page: 1, data: [call(1), call(2)], next_page_url: `${TEST_BASE_URL}/api/user/calls?page=2` })
			.get('/api/user/calls')
			.query({ ...qs, per_page: '100', page: '2' })
			.reply(200, { current_page: 2, data: [call(3)], next_page_url: null });
		const output = await run({
			resource: 'call',
			operation: 'getMany',
			returnAll: true,
			filters: { ...qs, assistant_id: 3, campaign_id: 9, date_from: '2026-11-01T10:00:00.000Z', date_to: '2026-11-21' },
		});
		expect(output).toEqual(items([call(1), call(2), call(3)]));
		scope.done();
	});

	it('Get Many with a limit asks for that many per page', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query({ per_page: '2', page: '1' })
			.reply(200, { data: [call(1), call(2)], next_page_url: `${TEST_BASE_URL}/api/user/calls?page=2` });
		expect(await run({ resource: 'call', operation: 'getMany', returnAll: false, limit: 2, filters: {} })).toEqual(items([call(1), call(2)]));
		scope.done();
	});

	it('Get Many refuses an unknown status and a bad date without a request', async () => {
		await expect(run({ resource: 'call', operation: 'getMany', returnAll: true, filters: { status: 'done' } })).rejects.toThrow('Status must be one of');
		await expect(run({ resource: 'call', operation: 'getMany', returnAll: true, filters: { date_from: '21.11.2026' } })).rejects.toThrow(
			'From Date must be a date',
		);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Get reads GET /api/user/calls/{id} and unwraps data', async () => {
		const scope = nock(TEST_BASE_URL).get('/api/user/calls/42').reply(200, { data: call(42) });
		expect(await run({ resource: 'call', operation: 'get', callId: '42' })).toEqual(items([call(42)]));
		scope.done();
	});

	it('Make posts assistant, phone and variables and outputs the answer', async () => {
		const answer = { message: 'Call initiated', call_id: 77, status: 'initiated' };
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/make_call', { assistant_id: 5, phone_number: '+4915112345678', variables: { name: 'Ada', plan: 'gold' } })
			.reply(200, answer);
		const output = await run({
			resource: 'call',
			operation: 'make',
			assistantId: rl('5'),
			phoneNumber: '+4915112345678',
			variables: { values: [{ key: 'name', value: 'Ada' }] },
			variablesJson: { plan: 'gold' },
		});
		expect(output).toEqual(items([answer]));
		scope.done();
	});

	it('Make refuses a phone that is not E.164 without a request', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/make_call').reply(200, {});
		await expect(run({ resource: 'call', operation: 'make', assistantId: rl('5'), phoneNumber: '0049151' })).rejects.toThrow('E.164');
		expect(scope.isDone()).toBe(false);
	});
});

describe('Conversation', () => {
	const history = [{ role: 'assistant', content: 'Hello!' }];

	it('Create posts the assistant UUID, type and variables and outputs the answer without status', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/conversations', { assistant_id: ASSISTANT_UUID, type: 'widget', variables: { name: 'Ada' } })
			.reply(200, { status: true, conversation_id: CONVERSATION_UUID, history });
		const output = await run({
			resource: 'conversation',
			operation: 'create',
			assistantUuid: rl(ASSISTANT_UUID, 'id'),
			type: 'widget',
			variables: { values: [{ key: 'name', value: 'Ada' }] },
		});
		expect(output).toEqual(items([{ conversation_id: CONVERSATION_UUID, history }]));
		scope.done();
	});

	it('Create refuses an assistant that is not a UUID without a request', async () => {
		await expect(run({ resource: 'conversation', operation: 'create', assistantUuid: rl('12', 'id'), type: 'test' })).rejects.toThrow(
			'Assistant must be a UUID',
		);
	});

	it('Create fails with the service error of {status: false}', async () => {
		nock(TEST_BASE_URL).post('/api/conversations').reply(200, { status: false, error: 'Insufficient balance. Please top up your account.' });
		await expect(run({ resource: 'conversation', operation: 'create', assistantUuid: rl(ASSISTANT_UUID), type: 'widget' })).rejects.toThrow(
			'Insufficient balance',
		);
	});

	it('Get reads GET /api/conversations/{uuid}', async () => {
		const scope = nock(TEST_BASE_URL).get(`/api/conversations/${CONVERSATION_UUID}`).reply(200, { status: true, history });
		expect(await run({ resource: 'conversation', operation: 'get', conversationId: CONVERSATION_UUID })).toEqual(
			items([{ conversation_id: CONVERSATION_UUID, history }]),
		);
		scope.done();
	});

	it('Get Many sends the filters and outputs one item per conversation', async () => {
		const list = [{ id: 1, type: 'api' }, { id: 2, type: 'api' }];
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/conversations')
			.query({ type: 'api', assistant_id: '4', date_from: '2026-10-01', date_to: '2026-10-31', per_page: '100', page: '1' })
			.reply(200, { data: list, next_page_url: null });
		const output = await run({
			resource: 'conversation',
			operation: 'getMany',
			returnAll: true,
			filters: { type: 'api', assistant_id: 4, date_from: '2026-10-01', date_to: '2026-10-31T23:00:00' },
		});
		expect(output).toEqual(items(list));
		scope.done();
	});

	it('Send Message posts {message} and outputs the reply without status', async () => {
		const reply = { status: true, message: 'Sure, tomorrow at 10.', function_calls: [] };
		const scope = nock(TEST_BASE_URL)
			.post(`/api/conversations/${CONVERSATION_UUID}/messages`, { message: 'Can I book a slot?' })
			.reply(200, reply);
		expect(
			await run({ resource: 'conversation', operation: 'sendMessage', conversationId: CONVERSATION_UUID, message: 'Can I book a slot?' }),
		).toEqual(items([{ conversation_id: CONVERSATION_UUID, message: 'Sure, tomorrow at 10.', function_calls: [] }]));
		scope.done();
	});

	it('Send Message refuses a conversation ID that is not a UUID', async () => {
		await expect(run({ resource: 'conversation', operation: 'sendMessage', conversationId: '17', message: 'hi' })).rejects.toThrow(
			'Conversation ID must be a UUID',
		);
	});
});

describe('Assistant (lists, delete, webhooks)', () => {
	it('Get Many reads every page of /api/user/assistants/get', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '1' })
			.reply(200, { data: [{ id: 1 }], next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=2` })
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '2' })
			.reply(200, { data: [{ id: 2 }], next_page_url: null });
		expect(await run({ resource: 'assistant', operation: 'getMany', returnAll: true })).toEqual(items([{ id: 1 }, { id: 2 }]));
		scope.done();
	});

	it.each([
		['getOutbound', '/api/user/assistants/outbound', {}, {}],
		['getVoices', '/api/user/assistants/voices', { filters: { mode: 'dualplex', language_id: 2 } }, { mode: 'dualplex', language_id: '2' }],
		['getVoices', '/api/user/assistants/voices', { filters: {} }, {}],
		['getLanguages', '/api/user/assistants/languages', {}, {}],
		['getModels', '/api/user/assistants/models', { modelType: 'multimodal' }, { type: 'multimodal' }],
		['getSynthesizerProviders', '/api/user/assistants/synthesizer-providers', {}, {}],
		['getTranscriberProviders', '/api/user/assistants/transcriber-providers', {}, {}],
		['getAssignablePhoneNumbers', '/api/user/assistants/phone-numbers', { assistantType: 'outbound' }, { type: 'outbound' }],
	])('%s reads %s with the query %j, one item per element, cut to the limit', async (operation, path, parameters, query) => {
		const list = [{ id: 1 }, { id: 2 }, { id: 3 }];
		const scope = nock(TEST_BASE_URL).get(path).query(query).reply(200, list);
		expect(await run({ resource: 'assistant', operation, returnAll: false, limit: 2, ...parameters })).toEqual(items(list.slice(0, 2)));
		scope.done();
	});

	it('a list wrapped in {data} is unwrapped too (Return All)', async () => {
		const scope = nock(TEST_BASE_URL).get('/api/user/assistants/languages').reply(200, { data: [{ id: 1, name: 'German' }] });
		expect(await run({ resource: 'assistant', operation: 'getLanguages', returnAll: true })).toEqual(items([{ id: 1, name: 'German' }]));
		scope.done();
	});

	it('Get Models refuses an unknown type without a request', async () => {
		await expect(run({ resource: 'assistant', operation: 'getModels', modelType: 'tts', returnAll: true })).rejects.toThrow('Model Type must be one of');
	});

	it('Delete sends DELETE /api/user/assistant/{id}', async () => {
		const scope = nock(TEST_BASE_URL).delete('/api/user/assistant/5').reply(200, { message: 'Assistant deleted successfully' });
		expect(await run({ resource: 'assistant', operation: 'delete', assistantId: rl('5', 'id') })).toEqual(
			items([{ deleted: true, id: 5, message: 'Assistant deleted successfully' }]),
		);
		scope.done();
	});

	it('Enable Inbound Webhook posts {assistant_id, webhook_url}', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/assistants/enable-inbound-webhook', { assistant_id: 5, webhook_url: 'https://example.com/in' })
			.reply(200, { message: 'Inbound webhook enabled', data: [] });
		expect(
			await run({ resource: 'assistant', operation: 'enableInboundWebhook', assistantId: rl('5'), webhookUrl: 'https://example.com/in' }),
		).toEqual(items([{ success: true, assistant_id: 5, webhook_url: 'https://example.com/in', message: 'Inbound webhook enabled' }]));
		scope.done();
	});

	it('Enable Inbound Webhook refuses a URL that is not http(s) without a request', async () => {
		await expect(
			run({ resource: 'assistant', operation: 'enableInboundWebhook', assistantId: rl('5'), webhookUrl: 'ftp://example.com' }),
		).rejects.toThrow('Webhook URL must be a valid http(s) URL');
	});

	it.each([
		['disableInboundWebhook', '/api/user/assistants/disable-inbound-webhook'],
		['disablePostCallWebhook', '/api/user/assistants/disable-webhook'],
	])('%s posts {assistant_id} to %s', async (operation, path) => {
		const scope = nock(TEST_BASE_URL).post(path, { assistant_id: 5 }).reply(200, { message: 'Disabled' });
		expect(await run({ resource: 'assistant', operation, assistantId: rl('5') })).toEqual(
			items([{ success: true, assistant_id: 5, message: 'Disabled' }]),
		);
		scope.done();
	});
});
