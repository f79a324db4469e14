/** SIP Trunk → Get and Get Many: both answer forms, Return All / Limit, no password in the output. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';
import { withTrunkIds } from './fixtures';

const PATH = '/api/user/phone-numbers/sip-trunks';

describe('SIP Trunk → Get', () => {
	it('reads {data} and an unwrapped record', async () => {
		const scope = nock(TEST_BASE_URL)
			.get(`${PATH}/9`)
			.reply(200, { data: withTrunkIds })
			.get(`${PATH}/9`)
			.reply(200, { ...withTrunkIds, sip_password: 'leaked' });
		expect(await run({ resource: 'sipTrunk', operation: 'get', sipTrunkId: rl('9') })).toEqual([
			item(withTrunkIds),
		]);
		expect(
			await run({ resource: 'sipTrunk', operation: 'get', sipTrunkId: rl('9', 'id') }),
		).toEqual([item(withTrunkIds)]);
		scope.done();
	});

	it('shows the service text of an unknown trunk', async () => {
		nock(TEST_BASE_URL).get(`${PATH}/4`).reply(404, { error: 'SIP trunk not found.' });
		await expect(
			run({ resource: 'sipTrunk', operation: 'get', sipTrunkId: rl('4') }),
		).rejects.toThrow('SIP trunk not found.');
	});

	it('refuses an ID that is not a number', async () => {
		await expect(
			run({ resource: 'sipTrunk', operation: 'get', sipTrunkId: rl('x') }),
		).rejects.toThrow('SIP Trunk must be a positive whole number');
	});
});
