/** WhatsApp → Get Templates: GET /api/user/whatsapp/senders/{id}/templates with the status filter. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, rl, run } from '../helpers';
import { orderUpdate } from './fixtures';

const templates = [
	orderUpdate,
	{
		id: 3,
		name: 'promo',
		language: 'pt_BR',
		category: 'marketing',
		status: 'pending',
		body_text: 'Hi',
		variables: [],
		has_variables: false,
	},
];
const base = { resource: 'whatsapp', operation: 'getTemplates', senderId: rl('1') };

describe('WhatsApp: Get Templates', () => {
	it('lists the approved templates of the sender by default', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders/1/templates')
			.query({ status: 'approved' })
			.reply(200, { data: [templates[0]] });
		expect(await run({ ...base, returnAll: true })).toEqual(items([templates[0]]));
		scope.done();
	});

	it('Status All, limited, from a bare array', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders/7/templates')
			.query({ status: 'all' })
			.reply(200, templates);
		expect(
			await run({
				...base,
				senderId: rl('7', 'id'),
				templateStatus: 'all',
				returnAll: false,
				limit: 1,
			}),
		).toEqual(items([templates[0]]));
		scope.done();
	});

	it('an unknown sender fails with the service text and its error code', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/senders/9/templates')
			.query(true)
			.reply(404, { success: false, error: 'Sender not found', error_code: 'SENDER_NOT_FOUND' });
		const error = await run({ ...base, senderId: rl('9'), returnAll: true }).catch((e) => e);
		expect(error.message).toBe('Sender not found');
		expect(error.description).toContain('Error code: SENDER_NOT_FOUND.');
	});

	it('refuses a sender that is not a numeric ID and an unknown status before sending', async () => {
		await expect(run({ ...base, senderId: rl('Support', 'id'), returnAll: true })).rejects.toThrow(
			'Sender must be a positive whole number',
		);
		await expect(run({ ...base, templateStatus: 'pending', returnAll: true })).rejects.toThrow(
			'Status must be one of approved, all',
		);
	});
});
