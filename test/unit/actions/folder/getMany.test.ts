/** Folder → Get Many. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

const resource = 'folder';

const page = (data: object[], current = 1, last = 1) => ({
	current_page: current,
	data,
	last_page: last,
	per_page: 100,
	total: data.length,
	next_page_url: current < last ? `${TEST_BASE_URL}/x?page=${current + 1}` : null,
});

describe('Folder → Get Many', () => {
	it('Get Many reads every page of the list', async () => {
		const scope = nock(TEST_BASE_URL)
			.get(`/api/user/${resource}s`)
			.query({ per_page: 100, page: 1 })
			.reply(200, page([{ id: 1, name: 'A' }], 1, 2))
			.get(`/api/user/${resource}s`)
			.query({ per_page: 100, page: 2 })
			.reply(200, page([{ id: 2, name: 'B' }], 2, 2));
		expect(await run({ resource, operation: 'getMany', returnAll: true })).toEqual(
			items([
				{ id: 1, name: 'A' },
				{ id: 2, name: 'B' },
			]),
		);
		scope.done();
	});

	it('Get Many with a limit asks for that many', async () => {
		const scope = nock(TEST_BASE_URL)
			.get(`/api/user/${resource}s`)
			.query({ per_page: 1, page: 1 })
			.reply(200, page([{ id: 1, name: 'A' }], 1, 3));
		expect(await run({ resource, operation: 'getMany', returnAll: false, limit: 1 })).toEqual(
			items([{ id: 1, name: 'A' }]),
		);
		scope.done();
	});
});
