import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, run } from '../helpers';

describe('Conversation', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Get Many sends the filters and reads the pages', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/conversations')
			.query({
				type: 'widget',
				assistant_id: '2',
				date_from: '2026-11-01',
				date_to: '2026-11-02',
				per_page: '2',
				page: '1',
			})
			.reply(200, {
				data: [{ id: 'a' }, { id: 'b' }],
				next_page_url: `${TEST_BASE_URL}/api/user/conversations?page=2`,
			});
		const output = await run({
			resource: 'conversation',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
			filters: {
				type: 'widget',
				assistant_id: 2,
				date_from: '2026-11-01',
				date_to: '2026-11-02T23:00:00Z',
			},
		});
		expect(output).toEqual([item({ id: 'a' }), item({ id: 'b' })]);
		scope.done();
	});
});

describe('Conversation', () => {
	it('Get Many sends the filters and outputs one item per conversation', async () => {
		const list = [
			{ id: 1, type: 'api' },
			{ id: 2, type: 'api' },
		];
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/conversations')
			.query({
				type: 'api',
				assistant_id: '4',
				date_from: '2026-10-01',
				date_to: '2026-10-31',
				per_page: '100',
				page: '1',
			})
			.reply(200, { data: list, next_page_url: null });
		const output = await run({
			resource: 'conversation',
			operation: 'getMany',
			returnAll: true,
			filters: {
				type: 'api',
				assistant_id: 4,
				date_from: '2026-10-01',
				date_to: '2026-10-31T23:00:00',
			},
		});
		expect(output).toEqual(items(list));
		scope.done();
	});
});
