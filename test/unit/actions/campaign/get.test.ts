import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

describe('Campaign → Get', () => {
	it('Campaign → Get picks the campaign out of the list (bare array or {data}); an unknown one fails naming it', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/campaigns')
			.reply(200, [
				{ id: 1, name: 'A' },
				{ id: 2, name: 'B', status: 'draft' },
			]);
		expect(await run({ resource: 'campaign', operation: 'get', campaignId: rl('2') })).toEqual([
			item({ id: 2, name: 'B', status: 'draft' }),
		]);
		nock(TEST_BASE_URL)
			.get('/api/user/campaigns')
			.reply(200, { data: [{ id: 1, name: 'A' }] });
		await expect(
			run({ resource: 'campaign', operation: 'get', campaignId: rl('3') }),
		).rejects.toThrow('Campaign 3 not found');
	});
});
