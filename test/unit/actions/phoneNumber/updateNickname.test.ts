/** Phone Number → Update Nickname: PUT {nickname}; empty clears it (sent as null); at most 50 characters. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

const params = (nickname: unknown, id = '7') => ({
	resource: 'phoneNumber',
	operation: 'updateNickname',
	phoneNumberId: rl(id),
	nickname,
});
const record = {
	id: 7,
	phone_number: '+14155550123',
	nickname: 'Support',
	country_code: 'US',
	type: 'normal',
};

describe('Phone Number → Update Nickname', () => {
	it('sends the trimmed nickname and outputs the record with the message', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/phone-numbers/7', { nickname: 'Support' })
			.reply(200, { message: 'Phone number updated successfully.', data: record });
		expect(await run(params('  Support '))).toEqual([
			item({ ...record, message: 'Phone number updated successfully.' }),
		]);
		scope.done();
	});

	it.each(['', '   ', null])(
		'an empty nickname (%j) is sent as null to clear it',
		async (value) => {
			const scope = nock(TEST_BASE_URL)
				.put('/api/user/phone-numbers/7', { nickname: null })
				.reply(200, {
					message: 'Phone number updated successfully.',
					data: { ...record, nickname: null },
				});
			expect(await run(params(value))).toEqual([
				item({ ...record, nickname: null, message: 'Phone number updated successfully.' }),
			]);
			scope.done();
		},
	);

	it('accepts an unwrapped answer', async () => {
		nock(TEST_BASE_URL).put('/api/user/phone-numbers/7').reply(200, record);
		expect(await run(params('Support'))).toEqual([item(record)]);
	});

	it('allows 50 characters and refuses 51 before sending', async () => {
		nock(TEST_BASE_URL)
			.put('/api/user/phone-numbers/7', { nickname: 'x'.repeat(50) })
			.reply(200, { data: record });
		await run(params('x'.repeat(50)));
		await expect(run(params('x'.repeat(51)))).rejects.toThrow(
			'Nickname is too long: 51 characters, at most 50 are allowed',
		);
	});

	it('refuses an ID that is not a number', async () => {
		await expect(run(params('A', 'abc'))).rejects.toThrow(
			'Phone Number must be a positive whole number',
		);
	});

	it('shows the service text of an unknown number and of a validation failure', async () => {
		nock(TEST_BASE_URL)
			.put('/api/user/phone-numbers/7')
			.reply(404, { error: 'Phone number not found.' })
			.put('/api/user/phone-numbers/7')
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { nickname: ['The nickname must be a string.'] },
			});
		await expect(run(params('A'))).rejects.toThrow('Phone number not found.');
		await expect(run(params('A'))).rejects.toThrow('nickname: The nickname must be a string.');
	});
});
