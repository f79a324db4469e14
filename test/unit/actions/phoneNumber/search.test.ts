import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

describe('Phone Number → Search', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Phone Number → Search Available sends country and digits', async () => {
		const found = { phone_number: '+14155550123', price: 1.15, country_code: 'US' };
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers/search')
			.query({ country_code: 'GB', contains: '207' })
			.reply(200, { data: [found] });
		expect(
			await run({
				resource: 'phoneNumber',
				operation: 'search',
				country: 'GB',
				digits: '207',
				returnAll: true,
			}),
		).toEqual([item(found)]);
		scope.done();
	});

	it.each([
		[{ country: 'DE' }, 'Country must be one of AU, CA, DK, FI, IL, IT, NL, PL, GB, US, got "DE"'],
		[{ digits: '41a' }, 'Contains Digits must be digits only, at most 10'],
		[{ digits: '12345678901' }, 'Contains Digits must be digits only, at most 10'],
	])('Phone Number → Search Available refuses %j', async (change, message) => {
		await expect(
			run({
				resource: 'phoneNumber',
				operation: 'search',
				country: 'US',
				returnAll: true,
				...change,
			}),
		).rejects.toThrow(message);
	});
});
