/** SMS → Send: POST /api/user/sms with the sender's numeric ID; refusals before any request. */
import nock from 'nock';

import { TEST_API_KEY, TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

const base = {
	resource: 'sms',
	operation: 'send',
	fromNumberId: rl('1'),
	to: '+4915112345678',
	body: 'Your order has shipped.',
};
const data = {
	sms_id: 'sms_123',
	from: '+14155550101',
	to: '+4915112345678',
	body: 'Your order has shipped.',
	segments: 1,
	cost: 0.07,
	currency: 'EUR',
	status: 'sent',
};

describe('SMS: Send', () => {
	it('posts from (ID), to and body and outputs the SMS with the message', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/sms', { from: 1, to: '+4915112345678', body: 'Your order has shipped.' })
			.reply(200, { message: 'SMS sent successfully', data });
		expect(await run(base)).toEqual([item({ ...data, message: 'SMS sent successfully' })]);
		scope.done();
	});

	it('takes the sender ID typed in, and sends a number with separators compacted (00 → +)', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/sms', { from: 6, to: '+4915112345678', body: 'Hi' })
			.reply(200, { message: 'SMS sent successfully', data: { ...data, body: 'Hi' } });
		await run({ ...base, fromNumberId: rl(' 6 ', 'id'), to: '0049 151 123-456 78', body: 'Hi' });
		scope.done();
	});

	it.each(['+4915112345678', '+1 (415) 555-0101', '00441632960123'])(
		'sends the recipient %s in E.164 form, as WhatsApp does',
		async (to) => {
			const e164 = to.replace(/[\s()-]/g, '').replace(/^00/, '+');
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/sms', { from: 1, to: e164, body: 'Your order has shipped.' })
				.reply(200, { message: 'SMS sent successfully', data });
			await run({ ...base, to });
			scope.done();
		},
	);

	it('accepts an unwrapped answer too', async () => {
		nock(TEST_BASE_URL).post('/api/user/sms').reply(200, data);
		expect(await run(base)).toEqual([item(data)]);
	});

	it.each([
		[{ body: '' }, 'Message is required'],
		[{ body: 'x'.repeat(301) }, 'Message is too long: 301 characters, at most 300 are allowed'],
		[{ to: 'call me' }, 'To must be a phone number in E.164 form'],
		[{ to: '0151 1234567' }, 'To must be a phone number in E.164 form'],
		[
			{ to: '4915112345678' },
			'To must be a phone number in E.164 form (a "+", the country code and the number, digits only, e.g. +4915112345678), got "4915112345678"',
		],
		[{ to: '+49 151' }, 'To must be a phone number in E.164 form'],
		[{ to: '+0049151123456' }, 'To must be a phone number in E.164 form'],
		[{ fromNumberId: rl('first', 'id') }, 'From Number must be a positive whole number'],
	])('refuses %j before sending', async (change, message) => {
		const scope = nock(TEST_BASE_URL).post('/api/user/sms').reply(200, {});
		await expect(run({ ...base, ...change })).rejects.toThrow(message);
		expect(scope.isDone()).toBe(false);
	});

	it('sends exactly 300 characters', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/sms', (b) => b.body.length === 300)
			.reply(200, { message: 'SMS sent successfully', data });
		await run({ ...base, body: 'x'.repeat(300) });
		scope.done();
	});

	it.each([
		'Insufficient balance to send SMS',
		'Phone number is not SMS-capable',
		'From number not found',
	])('fails with the service text "%s" (not sent again)', async (message) => {
		const scope = nock(TEST_BASE_URL).post('/api/user/sms').once().reply(400, { message });
		const error = await run(base).catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe(message);
		expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
		scope.done();
	});

	it('a 500 is not retried (the SMS may have gone out)', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/sms')
			.once()
			.reply(500, { message: 'Failed to send SMS', error: 'carrier down' });
		await expect(run(base)).rejects.toThrow('carrier down');
		scope.done();
	});
});
