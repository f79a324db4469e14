import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { items, rl, run } from '../helpers';

describe('Campaign → Stop', () => {
	fakeClockPerTest();

	it('Stop posts {campaign_id, action: stop}; an answer without data still names the campaign', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/campaigns/update-status', { campaign_id: 7, action: 'stop' })
			.reply(200, { message: 'Campaign stopped successfully.', success: true });
		expect(
			await run({ resource: 'campaign', operation: 'stop', campaignId: rl('7', 'id') }),
		).toEqual(items([{ campaign_id: 7, message: 'Campaign stopped successfully.' }]));
		scope.done();
	});

	it('Stop may be sent again after an uncertain failure (stopping twice is harmless)', async () => {
		nock(TEST_BASE_URL).post('/api/user/campaigns/update-status').reply(502, 'gateway');
		const again = nock(TEST_BASE_URL)
			.post('/api/user/campaigns/update-status', { campaign_id: 7, action: 'stop' })
			.reply(200, {
				message: 'Campaign stopped successfully.',
				success: true,
				data: { campaign_id: 7, status: 'stopped' },
			});
		expect(await run({ resource: 'campaign', operation: 'stop', campaignId: rl('7') })).toEqual(
			items([{ campaign_id: 7, status: 'stopped', message: 'Campaign stopped successfully.' }]),
		);
		again.done();
	});
});

describe('Campaign → Stop errors', () => {
	it('fails with the service message for an unknown campaign', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/campaigns/update-status', { campaign_id: 8, action: 'stop' })
			.reply(404, { message: 'Campaign not found.', success: false });
		await expect(
			run({ resource: 'campaign', operation: 'stop', campaignId: rl('8') }),
		).rejects.toThrow('Campaign not found.');
	});
});
