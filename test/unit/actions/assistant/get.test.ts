import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

describe('Assistant → Get', () => {
	it('Assistant → Get pages the list until the assistant turns up', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query({ per_page: 100, page: 1 })
			.reply(200, {
				data: [{ id: 1, name: 'A' }],
				next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=2`,
			})
			.get('/api/user/assistants/get')
			.query({ per_page: 100, page: 2 })
			.reply(200, {
				data: [{ id: 7, name: 'Lisa', mode: 'pipeline' }],
				next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=3`,
			});
		expect(await run({ resource: 'assistant', operation: 'get', assistantId: rl('7') })).toEqual([
			item({ id: 7, name: 'Lisa', mode: 'pipeline' }),
		]);
		scope.done();
	});

	it('Assistant → Get of an unknown assistant fails naming it, after the last page', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query(true)
			.reply(200, { data: [{ id: 1 }], next_page_url: null });
		await expect(
			run({ resource: 'assistant', operation: 'get', assistantId: rl('9') }),
		).rejects.toThrow('Assistant 9 not found');
	});
});
