import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

describe('Mid Call Tool, Campaign, Phone Number', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	// Get Many and Get Many SMS-Capable in one test
	it('Phone Number → Get Many and Get Many SMS-Capable read their lists', async () => {
		const n = { id: 1, phone_number: '+14155550100', type: 'normal', sms_capable: true };
		nock(TEST_BASE_URL).get('/api/user/phone-numbers/all').reply(200, { data: [n, { ...n, id: 2 }] }).get('/api/user/phone-numbers').reply(200, { data: [n] });
		expect(await run({ resource: 'phoneNumber', operation: 'getMany', returnAll: false, limit: 1 })).toEqual([item(n)]);
		expect(await run({ resource: 'phoneNumber', operation: 'getManySmsCapable', returnAll: true })).toEqual([item(n)]);
	});
});
