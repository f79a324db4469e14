/** WhatsApp → Get Senders: GET /api/user/whatsapp/senders with the status filter, Return All / Limit. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

const senders = [
	{
		id: 1,
		phone_number: '+4930555000100',
		display_name: 'Support',
		status: 'online',
		quality_rating: 'GREEN',
		messaging_limit: 1000,
		messaging_limit_formatted: '1K',
	},
	{
		id: 2,
		phone_number: '+4930555000200',
		display_name: 'Sales',
		status: 'offline',
		quality_rating: 'RED',
		messaging_limit: null,
		messaging_limit_formatted: 'Unlimited',
	},
];

describe('WhatsApp: Get Senders', () => {
	it('asks for online senders by default and outputs one item each', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders')
			.query({ status: 'online' })
			.reply(200, { data: [senders[0]] });
		expect(await run({ resource: 'whatsapp', operation: 'getSenders', returnAll: true })).toEqual(
			items([senders[0]]),
		);
		scope.done();
	});

	it('Status All with a limit; a bare array is accepted too', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders')
			.query({ status: 'all' })
			.reply(200, senders);
		expect(
			await run({
				resource: 'whatsapp',
				operation: 'getSenders',
				senderStatus: 'all',
				returnAll: false,
				limit: 1,
			}),
		).toEqual(items([senders[0]]));
		scope.done();
	});

	it('an empty list outputs nothing', async () => {
		nock(TEST_BASE_URL).get('/api/user/whatsapp/senders').query(true).reply(200, { data: [] });
		expect(await run({ resource: 'whatsapp', operation: 'getSenders', returnAll: true })).toEqual(
			[],
		);
	});

	it('refuses an unknown status before sending', async () => {
		await expect(
			run({
				resource: 'whatsapp',
				operation: 'getSenders',
				senderStatus: 'offline',
				returnAll: true,
			}),
		).rejects.toThrow('Status must be one of online, all, got "offline"');
	});
});
