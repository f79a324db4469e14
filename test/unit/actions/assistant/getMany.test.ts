import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, run } from '../helpers';

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Get Many reads the paginated list', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '1' })
			.reply(200, {
				data: [{ id: 1 }],
				next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=2`,
			})
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '2' })
			.reply(200, { data: [{ id: 2 }], next_page_url: null });
		expect(await run({ resource: 'assistant', operation: 'getMany', returnAll: true })).toEqual([
			item({ id: 1 }),
			item({ id: 2 }),
		]);
		scope.done();
	});
});

describe('Assistant (lists, delete, webhooks)', () => {
	it('Get Many reads every page of /api/user/assistants/get', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '1' })
			.reply(200, {
				data: [{ id: 1 }],
				next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=2`,
			})
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '2' })
			.reply(200, { data: [{ id: 2 }], next_page_url: null });
		expect(await run({ resource: 'assistant', operation: 'getMany', returnAll: true })).toEqual(
			items([{ id: 1 }, { id: 2 }]),
		);
		scope.done();
	});
});
