import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, rl, run } from '../helpers';

const ASSISTANT = '5f0c2a8e-1b3d-4c5e-8f7a-9b0c1d2e3f4a';
const CONVERSATION = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const history = [{ role: 'assistant', content: 'Hello Ada, how can I help?' }];
const ASSISTANT_UUID = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const CONVERSATION_UUID = '5a1d0c3e-2b4f-4e6a-8c9d-0e1f2a3b4c5d';

describe('Conversation', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Create sends the assistant UUID, type and variables and drops status: true', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/conversations', {
				assistant_id: ASSISTANT,
				type: 'test',
				variables: { customer_name: 'Ada' },
			})
			.reply(200, { status: true, conversation_id: CONVERSATION, history });
		expect(
			await run({
				resource: 'conversation',
				operation: 'create',
				assistantUuid: { __rl: true, mode: 'list', value: ASSISTANT },
				type: 'test',
				variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
			}),
		).toEqual([item({ conversation_id: CONVERSATION, history })]);
		scope.done();
	});

	it.each([
		[200, 'Insufficient balance. Please top up your account.'],
		[404, 'Assistant not found'],
	])('Create shows {status: false, error} answered with %i', async (status, error) => {
		nock(TEST_BASE_URL).post('/api/conversations').reply(status, { status: false, error });
		await expect(
			run({
				resource: 'conversation',
				operation: 'create',
				assistantUuid: { __rl: true, mode: 'id', value: ASSISTANT },
				type: 'widget',
			}),
		).rejects.toThrow(error);
	});

	it('Create refuses an assistant that is not a UUID', async () => {
		await expect(
			run({
				resource: 'conversation',
				operation: 'create',
				assistantUuid: { __rl: true, mode: 'id', value: '12' },
				type: 'widget',
			}),
		).rejects.toThrow('Assistant must be a UUID');
	});
});

describe('Conversation', () => {
	const history = [{ role: 'assistant', content: 'Hello!' }];

	it('Create posts the assistant UUID, type and variables and outputs the answer without status', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/conversations', {
				assistant_id: ASSISTANT_UUID,
				type: 'widget',
				variables: { name: 'Ada' },
			})
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
		await expect(
			run({
				resource: 'conversation',
				operation: 'create',
				assistantUuid: rl('12', 'id'),
				type: 'test',
			}),
		).rejects.toThrow('Assistant must be a UUID');
	});

	it('Create fails with the service error of {status: false}', async () => {
		nock(TEST_BASE_URL)
			.post('/api/conversations')
			.reply(200, { status: false, error: 'Insufficient balance. Please top up your account.' });
		await expect(
			run({
				resource: 'conversation',
				operation: 'create',
				assistantUuid: rl(ASSISTANT_UUID),
				type: 'widget',
			}),
		).rejects.toThrow('Insufficient balance');
	});
});
