/** Phone Number → Purchase: one POST, never repeated after an uncertain failure, the service's errors with fitting hints. */
import nock from 'nock';

import { description } from '../../../../nodes/VoiceChatAssistant/actions/phoneNumber/PhoneNumber.resource';
import { TEST_BASE_URL } from '../../../helpers/context';
import { fakeClockPerTest } from '../../../helpers/fakeClock';
import { item, run } from '../helpers';

const params = (phoneNumber: string) => ({
	resource: 'phoneNumber',
	operation: 'purchase',
	phoneNumber,
});
const bought = {
	id: 7,
	phone_number: '+14155550123',
	country_code: 'US',
	type: 'normal',
	sms_capable: true,
};

describe('Phone Number → Purchase', () => {
	const clock = fakeClockPerTest();

	it('posts the number and outputs the bought number with the message', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/phone-numbers/purchase', { phone_number: '+14155550123' })
			.reply(201, { message: 'Phone number purchased successfully.', data: bought });
		expect(await run(params(' +14155550123 '))).toEqual([
			item({ ...bought, message: 'Phone number purchased successfully.' }),
		]);
		scope.done();
	});

	it('accepts an unwrapped answer', async () => {
		nock(TEST_BASE_URL).post('/api/user/phone-numbers/purchase').reply(201, bought);
		expect(await run(params('+14155550123'))).toEqual([item(bought)]);
	});

	it.each(['', '0151 1234567', '4915112345678', '+0123456789'])(
		'refuses %j before sending',
		async (value) => {
			await expect(run(params(value))).rejects.toThrow(
				'Phone Number must be a phone number in E.164 form',
			);
		},
	);

	it('says that it costs money in the picker and in the field', () => {
		const picker = description.find((p) => p.name === 'operation')!;
		const option = (picker.options as Array<{ value: string; description: string }>).find(
			(o) => o.value === 'purchase',
		)!;
		expect(option.description).toMatch(
			/Costs money: starts a monthly, auto-renewing subscription .*non-refundable/,
		);
		const field = description.find(
			(p) => p.name === 'phoneNumber' && p.displayOptions?.show?.operation?.includes('purchase'),
		)!;
		expect(field.description).toMatch(/Costs money/);
		expect(field.required).toBe(true);
	});

	it.each([
		[
			402,
			'No payment method found. Please add a payment method to your account.',
			'payment method stored in the account',
		],
		[402, 'Payment failed. Please update your payment method.', 'not with the balance'],
		[400, 'This phone number is already in use.', 'belongs to this account already'],
		[
			400,
			'This phone number is not available for purchase. Please search for available numbers first.',
			'Search Available',
		],
		[422, 'Unable to parse phone number. Please provide a valid E.164 format number.', undefined],
		[500, 'Failed to purchase phone number from provider. Please contact support.', undefined],
	])('a %i shows the service text', async (status, error, hint) => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/phone-numbers/purchase')
			.reply(status, { error });
		const failure = await run(params('+14155550123')).catch(
			(e: Error & { description?: string }) => e,
		);
		expect(failure).toBeInstanceOf(Error);
		expect((failure as Error).message).toBe(error);
		if (hint) expect((failure as { description?: string }).description).toContain(hint);
		scope.done();
	});

	it.each([502, 504])('is not sent again after a %i (it may have been applied)', async (status) => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/phone-numbers/purchase')
			.once()
			.reply(status, 'gateway');
		await expect(run(params('+14155550123'))).rejects.toThrow();
		scope.done();
		expect(clock.sleeps).toEqual([]);
	});

	it('is not sent again after a connection reset', async () => {
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/phone-numbers/purchase')
			.once()
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		await expect(run(params('+14155550123'))).rejects.toThrow('ECONNRESET');
		scope.done();
		expect(clock.sleeps).toEqual([]);
	});
});
