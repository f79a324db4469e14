/** WhatsApp → Send Freeform: POST /api/user/whatsapp/send-freeform inside the 24-hour window. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { installFakeClock } from '../../../helpers/fakeClock';
import { item, rl, run } from '../helpers';

const session = {
	is_open: true,
	can_send_freeform: true,
	requires_template: false,
	message: 'open',
	minutes_remaining: 100,
	expires_at: '2026-11-24T10:00:00Z',
};
const answer = {
	success: true,
	conversation_id: 12,
	message_id: 77,
	whatsapp_message_id: 88,
	message_sid: 'SMabc',
	session_status: session,
};
const base = {
	resource: 'whatsapp',
	operation: 'sendFreeform',
	senderId: rl('1'),
	recipientPhone: '+4915112345678',
	message: 'Your parcel arrives today.',
};

describe('WhatsApp: Send Freeform', () => {
	it('posts sender, recipient and message and outputs the ids and the session status', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/whatsapp/send-freeform', {
				sender_id: 1,
				recipient_phone: '+4915112345678',
				message: 'Your parcel arrives today.',
			})
			.reply(200, answer);
		const { success, ...rest } = answer;
		expect(success).toBe(true);
		expect(await run(base)).toEqual([item(rest)]);
		scope.done();
	});

	it.each([
		[{ message: '' }, 'Message is required'],
		[
			{ message: 'm'.repeat(4097) },
			'Message is too long: 4097 characters, at most 4096 are allowed',
		],
		[{ recipientPhone: 'Ada' }, 'Recipient Phone must be a phone number in E.164 form'],
	])('refuses %j before sending', async (change, message) => {
		const scope = nock(TEST_BASE_URL).post('/api/user/whatsapp/send-freeform').reply(200, answer);
		await expect(run({ ...base, ...change })).rejects.toThrow(message);
		expect(scope.isDone()).toBe(false);
	});

	it('sends exactly 4096 characters', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/whatsapp/send-freeform', (b) => b.message.length === 4096)
			.reply(200, answer);
		await run({ ...base, message: 'm'.repeat(4096) });
		scope.done();
	});

	it('a closed window fails once with the service text and a hint to send a template', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/whatsapp/send-freeform')
			.once()
			.reply(403, {
				success: false,
				error: 'Session expired',
				error_code: 'SESSION_EXPIRED',
				session_status: { is_open: false },
			});
		const error = await run(base).catch((e) => e);
		expect(error.message).toBe('Session expired');
		expect(error.description).toContain('Error code: SESSION_EXPIRED.');
		expect(error.description).toContain('Send Template');
		scope.done();
	});

	describe('503 SENDER_OFFLINE', () => {
		let clock: ReturnType<typeof installFakeClock>;
		beforeEach(() => {
			clock = installFakeClock();
		});
		afterEach(() => clock.restore());

		// a send that costs money is never sent twice: a 503 fails the item at once with the service text
		it('fails at once with the service text (not sent again)', async () => {
			const offline = {
				success: false,
				error: 'The sender is offline',
				error_code: 'SENDER_OFFLINE',
			};
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/whatsapp/send-freeform')
				.once()
				.reply(503, offline);
			const error = await run(base).catch((e) => e);
			expect(error.message).toBe('The sender is offline');
			expect(error.description).toContain('Error code: SENDER_OFFLINE.');
			expect(clock.sleeps.filter((ms) => ms > 0)).toHaveLength(0);
			scope.done();
		});
	});
});
