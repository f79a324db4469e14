/** SIP Trunk → Create: the body per the docs, every refusal before sending, the password never in output or errors. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';
import { createBody, createParameters, withTrunkIds } from './fixtures';

const PATH = '/api/user/phone-numbers/sip-trunks';
const base = createParameters;
const sentBase = createBody;
const created = { message: 'SIP trunk created successfully.', data: withTrunkIds };

describe('SIP Trunk → Create', () => {
	it('posts a number trunk with username/password authorization', async () => {
		const scope = nock(TEST_BASE_URL).post(PATH, sentBase).reply(201, created);
		expect(await run(base)).toEqual([
			item({ ...withTrunkIds, message: 'SIP trunk created successfully.' }),
		]);
		scope.done();
	});

	it('posts an extension trunk with an IP allowlist, nickname and outbound proxy', async () => {
		const body = {
			...sentBase,
			sip_trunk_type: 'extension',
			phone_number: '101',
			inbound_authorization_type: 'ip',
			allowed_inbound_ips: ['203.0.113.10', '2001:db8::1', '::ffff:192.0.2.1'],
			nickname: 'Front desk',
			outbound_proxy: true,
		};
		const scope = nock(TEST_BASE_URL).post(PATH, body).reply(201, created);
		await run({
			...base,
			sip_trunk_type: 'extension',
			phone_number: '101',
			inbound_authorization_type: 'ip',
			allowed_inbound_ips: '203.0.113.10, 2001:db8::1\n::ffff:192.0.2.1',
			additionalFields: { nickname: ' Front desk ', outbound_proxy: true },
		});
		scope.done();
	});

	it('takes the IP list as an array from an expression', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(PATH, {
				...sentBase,
				inbound_authorization_type: 'ip',
				allowed_inbound_ips: ['198.51.100.7'],
			})
			.reply(201, created);
		await run({ ...base, inbound_authorization_type: 'ip', allowed_inbound_ips: ['198.51.100.7'] });
		scope.done();
	});

	it('never outputs a password, even if an answer carried one', async () => {
		nock(TEST_BASE_URL)
			.post(PATH)
			.reply(201, { data: { ...withTrunkIds, sip_password: 'TopSecret-99' } });
		const [output] = await run(base);
		expect(JSON.stringify(output)).not.toContain('TopSecret-99');
	});

	it.each([
		[{ sip_trunk_type: 'trunk' }, 'Trunk Type must be one of extension, number, got "trunk"'],
		[{ phone_number: '' }, 'Phone Number is required'],
		[{ phone_number: '030123456' }, 'Phone Number of a Number trunk must be in E.164 form'],
		[
			{ sip_trunk_type: 'extension', phone_number: '1234567890123456' },
			'Phone Number (extension) must be 1-15 characters long, got 16',
		],
		[{ sip_username: 'ab' }, 'SIP Username must be 3-128 characters long, got 2'],
		[{ sip_username: 'u'.repeat(129) }, 'SIP Username must be 3-128 characters long, got 129'],
		[{ sip_password: '' }, 'SIP Password is required'],
		[{ sip_password: 'pw' }, 'SIP Password is too short: at least 3 characters are needed'],
		[{ sip_address: '' }, 'SIP Address is required'],
		[
			{ sip_address: 'sip.provider.example:5060' },
			'SIP Address must be a host name or IP address without a port',
		],
		[{ sip_address: '[2001:db8::1]:5060' }, 'without a port'],
		[{ sip_address: 'sip:sip.provider.example' }, 'without a scheme such as "sip:"'],
		[{ sip_address: 'udp://sip.provider.example' }, 'without a scheme'],
		[
			{ sip_calling_format: 'intl' },
			'Calling Format must be one of +e164, e164, national, got "intl"',
		],
		[
			{ inbound_authorization_type: 'token' },
			'Inbound Authorization must be one of auth, ip, got "token"',
		],
		[
			{ inbound_authorization_type: 'ip', allowed_inbound_ips: ' , ' },
			'Allowed Inbound IPs needs at least one IP address',
		],
		[
			{ inbound_authorization_type: 'ip', allowed_inbound_ips: '10.0.0.0/8' },
			'Allowed Inbound IPs must be IPv4 or IPv6 addresses (no ranges or ports), got "10.0.0.0/8"',
		],
		[
			{ inbound_authorization_type: 'ip', allowed_inbound_ips: '1.2.3.4, 256.1.1.1' },
			'got "256.1.1.1"',
		],
		[
			{ inbound_authorization_type: 'ip', allowed_inbound_ips: '2001:db8:::1' },
			'got "2001:db8:::1"',
		],
		[
			{ country_code: 'DEU' },
			'Country Code must be two letters (ISO 3166-1 alpha-2, e.g. DE), got "DEU"',
		],
		[{ country_code: '' }, 'Country Code is required'],
		[
			{ additionalFields: { nickname: 'n'.repeat(51) } },
			'Nickname is too long: 51 characters, at most 50 are allowed',
		],
	])('refuses %j before sending', async (change, message) => {
		const failure = await run({ ...base, ...change }).catch((e: Error) => e);
		expect(failure).toBeInstanceOf(Error);
		expect((failure as Error).message).toContain(message);
		expect((failure as Error).message).not.toContain('TopSecret-99');
	});

	it('accepts a bare IPv6 address as SIP address (its colons are no port)', async () => {
		const scope = nock(TEST_BASE_URL)
			.post(PATH, { ...sentBase, sip_address: '2001:db8::5' })
			.reply(201, created);
		await run({ ...base, sip_address: '2001:db8::5' });
		scope.done();
	});

	it('shows the service text of a duplicate, a validation failure and a provisioning failure', async () => {
		nock(TEST_BASE_URL)
			.post(PATH)
			.reply(409, {
				error: 'A SIP trunk with this phone number, username and address already exists.',
			})
			.post(PATH)
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { sip_address: ['The sip address format is invalid.'] },
			})
			.post(PATH)
			.reply(500, { error: 'Failed to create SIP trunk.' });
		await expect(run(base)).rejects.toThrow(
			'A SIP trunk with this phone number, username and address already exists.',
		);
		await expect(run(base)).rejects.toThrow('sip_address: The sip address format is invalid.');
		await expect(run(base)).rejects.toThrow('Failed to create SIP trunk.');
	});
});
