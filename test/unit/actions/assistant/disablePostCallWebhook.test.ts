import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, rl, run } from '../helpers';

const ref = { __rl: true, mode: 'list', value: '5' };

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it.each([
		['disablePostCallWebhook', '/api/user/assistants/disable-webhook'],
	])('%s sends {assistant_id}', async (operation, path) => {
		const scope = nock(TEST_BASE_URL).post(path, { assistant_id: 5 }).reply(200, { message: 'Disabled' });
		expect(await run({ resource: 'assistant', operation, assistantId: ref })).toEqual([item({ success: true, assistant_id: 5, message: 'Disabled' })]);
		scope.done();
	});
});

describe('Assistant (lists, delete, webhooks)', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	it.each([
		['disablePostCallWebhook', '/api/user/assistants/disable-webhook'],
	])('%s posts {assistant_id} to %s', async (operation, path) => {
		const scope = nock(TEST_BASE_URL).post(path, { assistant_id: 5 }).reply(200, { message: 'Disabled' });
		expect(await run({ resource: 'assistant', operation, assistantId: rl('5') })).toEqual(
			items([{ success: true, assistant_id: 5, message: 'Disabled' }]),
		);
		scope.done();
	});
});
