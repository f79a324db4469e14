import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, rl, run } from '../helpers';

describe('Campaign → Delete', () => {
	it('sends DELETE /api/user/campaign/{id} (singular) and outputs deleted, id and message', async () => {
		const scope = nock(TEST_BASE_URL)
			.delete('/api/user/campaign/7')
			.reply(200, { message: 'Campaign deleted successfully' });
		expect(await run({ resource: 'campaign', operation: 'delete', campaignId: rl('7') })).toEqual(
			items([{ deleted: true, id: 7, message: 'Campaign deleted successfully' }]),
		);
		scope.done();
	});

	it('fails with the service message for an unknown campaign', async () => {
		nock(TEST_BASE_URL)
			.delete('/api/user/campaign/8')
			.reply(404, { message: 'Campaign not found' });
		await expect(
			run({ resource: 'campaign', operation: 'delete', campaignId: rl('8', 'id') }),
		).rejects.toThrow('Campaign not found');
	});

	it('refuses an ID that is not a positive whole number before sending', async () => {
		await expect(
			run({ resource: 'campaign', operation: 'delete', campaignId: rl('0', 'id') }),
		).rejects.toThrow('Campaign must be a positive whole number, got "0"');
	});
});
