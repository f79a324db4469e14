import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

describe.each([
	['Assistant (all but create and update)', 'Get Many reads the paginated list'],
	['Assistant (lists, delete, webhooks)', 'Get Many reads every page of /api/user/assistants/get'],
])('%s', (_suite, title) => {
	it(title, async () => {
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
