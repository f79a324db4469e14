import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { items, rl, run } from '../helpers';

describe('Campaign → Start', () => {
	fakeClockPerTest();

	it('Start posts {campaign_id, action: start} and outputs the data with the message', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/campaigns/update-status', { campaign_id: 7, action: 'start' })
			.reply(200, {
				message: 'Campaign started successfully.',
				success: true,
				data: { campaign_id: 7, status: 'in-progress' },
			});
		expect(await run({ resource: 'campaign', operation: 'start', campaignId: rl('7') })).toEqual(
			items([{ campaign_id: 7, status: 'in-progress', message: 'Campaign started successfully.' }]),
		);
		scope.done();
	});

	it.each([
		[400, 'Insufficient balance to start the campaign. Please top up your account.'],
		[404, 'Campaign not found.'],
		[403, 'Access denied - Campaign does not belong to authenticated user.'],
	])('Start fails on %i with the service message', async (status, message) => {
		nock(TEST_BASE_URL)
			.post('/api/user/campaigns/update-status')
			.reply(status, { message, success: false, data: { campaign_id: 7, status: 'draft' } });
		await expect(
			run({ resource: 'campaign', operation: 'start', campaignId: rl('7') }),
		).rejects.toThrow(message);
	});

	it('Start fails on an answer with success: false even with HTTP 200', async () => {
		nock(TEST_BASE_URL)
			.post('/api/user/campaigns/update-status')
			.reply(200, {
				message: 'Insufficient balance to start the campaign. Please top up your account.',
				success: false,
				data: { campaign_id: 7, status: 'draft' },
			});
		await expect(
			run({ resource: 'campaign', operation: 'start', campaignId: rl('7') }),
		).rejects.toThrow('Insufficient balance');
	});

	it.each([502, 504])(
		'Start is never sent twice after an uncertain failure (HTTP %i)',
		async (status) => {
			const first = nock(TEST_BASE_URL)
				.post('/api/user/campaigns/update-status')
				.reply(status, 'gateway');
			const second = nock(TEST_BASE_URL)
				.post('/api/user/campaigns/update-status')
				.reply(200, { success: true, data: {} });
			await expect(
				run({ resource: 'campaign', operation: 'start', campaignId: rl('7') }),
			).rejects.toThrow();
			expect(first.isDone()).toBe(true);
			expect(second.isDone()).toBe(false);
		},
	);

	it('refuses a campaign that is not a numeric ID before sending', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/campaigns/update-status').reply(200, {});
		await expect(
			run({ resource: 'campaign', operation: 'start', campaignId: rl('spring', 'id') }),
		).rejects.toThrow('Campaign must be a positive whole number, got "spring"');
		expect(scope.isDone()).toBe(false);
	});
});
