/** SIP Trunk → Update: only the fields given; switching to IP needs IPs; an empty update is refused. */
import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';
import { withTrunkIds } from './fixtures';

const PATH = '/api/user/phone-numbers/sip-trunks/9';
const params = (updateFields: object) => ({
	resource: 'sipTrunk',
	operation: 'update',
	sipTrunkId: rl('9'),
	updateFields,
});
const answer = { message: 'SIP trunk updated successfully.', data: withTrunkIds };

describe('SIP Trunk → Update', () => {
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	it('switches to an IP allowlist with the IPs', async () => {
		const scope = nock(TEST_BASE_URL)
			.put(PATH, {
				inbound_authorization_type: 'ip',
				allowed_inbound_ips: ['203.0.113.10', '2001:db8::1'],
			})
			.reply(200, answer);
		expect(
			await run(
				params({
					inbound_authorization_type: 'ip',
					allowed_inbound_ips: '203.0.113.10,2001:db8::1',
				}),
			),
		).toEqual([item({ ...withTrunkIds, message: 'SIP trunk updated successfully.' })]);
		scope.done();
	});

	it('sends only the fields given; an empty nickname removes it; either number form is accepted', async () => {
		const scope = nock(TEST_BASE_URL)
			.put(PATH, {
				nickname: null,
				sip_password: 'n3w-pass',
				outbound_proxy: true,
				phone_number: '102',
			})
			.reply(200, answer)
			.put(PATH, {
				phone_number: '+4930999999',
				sip_calling_format: 'national',
				country_code: 'AT',
			})
			.reply(200, { data: withTrunkIds });
		await run(
			params({ nickname: '', sip_password: 'n3w-pass', outbound_proxy: true, phone_number: '102' }),
		);
		expect(
			await run(
				params({ phone_number: '+4930999999', sip_calling_format: 'national', country_code: 'at' }),
			),
		).toEqual([item(withTrunkIds)]);
		scope.done();
	});

	it.each([
		[{}, 'Update Fields is empty: add at least one field to change'],
		[
			{ inbound_authorization_type: 'ip' },
			'Allowed Inbound IPs is required when switching Inbound Authorization to IP Allowlist',
		],
		[
			{ inbound_authorization_type: 'ip', allowed_inbound_ips: '' },
			'Allowed Inbound IPs is required',
		],
		[{ allowed_inbound_ips: 'localhost' }, 'Allowed Inbound IPs must be IPv4 or IPv6 addresses'],
		[{ sip_address: 'host.example:5061' }, 'without a port'],
		[{ sip_password: 'ab' }, 'SIP Password is too short'],
		[
			{ phone_number: '+49301234567890123' },
			'Phone Number must be an E.164 number (e.g. +4930123456) or an extension of 1-15 characters',
		],
		[{ sip_username: 'x' }, 'SIP Username must be 3-128 characters long'],
	])('refuses %j before sending', async (fields, message) => {
		await expect(run(params(fields))).rejects.toThrow(message);
	});

	it('shows the service text of an unknown trunk', async () => {
		nock(TEST_BASE_URL).put(PATH).reply(404, { error: 'SIP trunk not found.' });
		await expect(run(params({ nickname: 'x' }))).rejects.toThrow('SIP trunk not found.');
	});
});
