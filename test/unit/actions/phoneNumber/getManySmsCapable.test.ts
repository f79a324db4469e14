import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const n = { id: 1, phone_number: '+14155550100', type: 'normal', sms_capable: true };

describe('Phone Number → Get Many SMS-Capable', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Phone Number → Get Many SMS-Capable reads /phone-numbers', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers')
			.reply(200, { data: [n] });
		expect(
			await run({ resource: 'phoneNumber', operation: 'getManySmsCapable', returnAll: true }),
		).toEqual([item(n)]);
	});
});
