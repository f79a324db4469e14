import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, run } from '../helpers';

/** One plain list operation of the assistant resource: operation, path, extra parameters, expected query. */
export type ListRow = [string, string, object, nock.DataMatcherMap];

/** The query sent and the limit applied (Return All off, Limit 2). */
export function itReadsTheList(rows: ListRow[]) {
	it.each(rows)('%s reads %s with the query %j', async (operation, path, parameters, query) => {
		const scope = nock(TEST_BASE_URL)
			.get(path)
			.query(query)
			.reply(200, [{ id: 1 }, { id: 2 }, { id: 3 }]);
		expect(
			await run({ resource: 'assistant', operation, returnAll: false, limit: 2, ...parameters }),
		).toEqual([item({ id: 1 }), item({ id: 2 })]);
		scope.done();
	});
}

/** One output item per element of the answer, cut to the limit. */
export function itOutputsOneItemPerElement(rows: ListRow[]) {
	it.each(rows)(
		'%s reads %s with the query %j, one item per element, cut to the limit',
		async (operation, path, parameters, query) => {
			const list = [{ id: 1 }, { id: 2 }, { id: 3 }];
			const scope = nock(TEST_BASE_URL).get(path).query(query).reply(200, list);
			expect(
				await run({ resource: 'assistant', operation, returnAll: false, limit: 2, ...parameters }),
			).toEqual(items(list.slice(0, 2)));
			scope.done();
		},
	);
}

/**
 * The two describe blocks every plain list operation of the assistant has
 * (their titles kept from before the tests mirrored the code); `more` adds
 * operation-specific tests to the second one.
 */
export function describeListOperation(rows: ListRow[], more?: () => void) {
	describe('Assistant (all but create and update)', () => {
		beforeEach(() => resetLimiters());
		afterEach(() => nock.cleanAll());
		itReadsTheList(rows);
	});
	describe('Assistant (lists, delete, webhooks)', () => {
		itOutputsOneItemPerElement(rows);
		more?.();
	});
}
