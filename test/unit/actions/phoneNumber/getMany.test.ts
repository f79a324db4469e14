import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const n = { id: 1, phone_number: '+14155550100', type: 'normal', sms_capable: true };

describe('Phone Number → Get Many', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Phone Number → Get Many reads /phone-numbers/all and applies the limit', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers/all')
			.reply(200, { data: [n, { ...n, id: 2 }] });
		expect(
			await run({ resource: 'phoneNumber', operation: 'getMany', returnAll: false, limit: 1 }),
		).toEqual([item(n)]);
	});
});
