import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, run } from '../helpers';

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it.each([
		['getOutbound', '/api/user/assistants/outbound', {}, {}],
	])('%s reads %s with the query %j', async (operation, path, parameters, query) => {
		const scope = nock(TEST_BASE_URL).get(path).query(query).reply(200, [{ id: 1 }, { id: 2 }, { id: 3 }]);
		expect(await run({ resource: 'assistant', operation, returnAll: false, limit: 2, ...parameters })).toEqual([item({ id: 1 }), item({ id: 2 })]);
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
		['getOutbound', '/api/user/assistants/outbound', {}, {}],
	])('%s reads %s with the query %j, one item per element, cut to the limit', async (operation, path, parameters, query) => {
		const list = [{ id: 1 }, { id: 2 }, { id: 3 }];
		const scope = nock(TEST_BASE_URL).get(path).query(query).reply(200, list);
		expect(await run({ resource: 'assistant', operation, returnAll: false, limit: 2, ...parameters })).toEqual(items(list.slice(0, 2)));
		scope.done();
	});
});
