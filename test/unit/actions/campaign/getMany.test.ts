import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

describe('Campaign → Get Many', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Campaign → Get Many returns one item per campaign', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/campaigns')
			.reply(200, {
				data: [
					{ id: 1, name: 'Spring' },
					{ id: 2, name: 'Summer' },
				],
			});
		expect(await run({ resource: 'campaign', operation: 'getMany', returnAll: true })).toEqual([
			item({ id: 1, name: 'Spring' }),
			item({ id: 2, name: 'Summer' }),
		]);
	});

	it('Campaign → Get Many accepts a bare array (as documented) and applies the limit', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/campaigns')
			.reply(200, [
				{ id: 1, name: 'Spring' },
				{ id: 2, name: 'Summer' },
			]);
		expect(
			await run({ resource: 'campaign', operation: 'getMany', returnAll: false, limit: 1 }),
		).toEqual([item({ id: 1, name: 'Spring' })]);
	});

	it('Campaign → Get Many outputs nothing for an empty list', async () => {
		nock(TEST_BASE_URL).get('/api/user/campaigns').reply(200, []);
		expect(await run({ resource: 'campaign', operation: 'getMany', returnAll: true })).toEqual([]);
	});
});
