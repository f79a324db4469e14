/** WhatsApp → Get Session Status: GET /api/user/whatsapp/session-status, "+" sent as %2B. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

const open = {
	is_open: true,
	can_send_freeform: true,
	requires_template: false,
	message: 'Session is open',
	minutes_remaining: 600,
	expires_at: '2026-11-24T10:00:00Z',
};
const base = {
	resource: 'whatsapp',
	operation: 'getSessionStatus',
	senderId: rl('1'),
	recipientPhone: '+4915112345678',
};

describe('WhatsApp: Get Session Status', () => {
	it('encodes the "+" of the recipient as %2B and outputs the status without the success flag', async () => {
		const answer = {
			success: true,
			has_conversation: true,
			conversation_id: 12,
			customer_name: 'Ada',
			last_customer_message_at: '2026-11-23T10:00:00Z',
			session_status: open,
		};
		let rawPath = '';
		const scope = nock(TEST_BASE_URL)
			.get((path) => {
				rawPath = path;
				return path.startsWith('/api/user/whatsapp/session-status?');
			})
			.reply(200, answer);
		const { success, ...rest } = answer;
		expect(success).toBe(true);
		expect(await run(base)).toEqual([
			item({ sender_id: 1, recipient_phone: '+4915112345678', ...rest }),
		]);
		expect(rawPath).toBe(
			'/api/user/whatsapp/session-status?sender_id=1&recipient_phone=%2B4915112345678',
		);
		scope.done();
	});

	it('without a conversation; separators in the number are dropped', async () => {
		const answer = {
			success: true,
			has_conversation: false,
			session_status: {
				is_open: false,
				can_send_freeform: false,
				requires_template: true,
				message: 'No conversation',
			},
		};
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/session-status')
			.query({ sender_id: '2', recipient_phone: '+4915112345678' })
			.reply(200, answer);
		const [output] = await run({
			...base,
			senderId: rl('2', 'id'),
			recipientPhone: '+49 151 1234 5678',
		});
		expect(output.json).toMatchObject({
			has_conversation: false,
			session_status: { requires_template: true },
		});
		scope.done();
	});

	it('refuses a number that is not E.164 before sending', async () => {
		await expect(run({ ...base, recipientPhone: '015112345678' })).rejects.toThrow(
			'Recipient Phone must be a phone number in E.164 form',
		);
	});

	it('an unknown sender fails with the service text', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/whatsapp/session-status')
			.query(true)
			.reply(404, { success: false, error: 'Sender not found', error_code: 'SENDER_NOT_FOUND' });
		await expect(run(base)).rejects.toThrow('Sender not found');
	});
});
