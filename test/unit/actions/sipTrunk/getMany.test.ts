/** SIP Trunk → Get Many: `{data: [...]}` or a bare array, Return All / Limit. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';
import { trunk } from './fixtures';

const PATH = '/api/user/phone-numbers/sip-trunks';
const list = [trunk, { ...trunk, id: 10 }, { ...trunk, id: 11 }];

describe('SIP Trunk → Get Many', () => {
	it('reads {data: [...]} with Return All', async () => {
		const scope = nock(TEST_BASE_URL).get(PATH).reply(200, { data: list });
		expect(await run({ resource: 'sipTrunk', operation: 'getMany', returnAll: true })).toEqual(
			items(list),
		);
		scope.done();
	});

	it('reads a bare array and applies the limit', async () => {
		nock(TEST_BASE_URL).get(PATH).reply(200, list);
		expect(
			await run({ resource: 'sipTrunk', operation: 'getMany', returnAll: false, limit: 2 }),
		).toEqual(items(list.slice(0, 2)));
	});

	it('outputs no password field', async () => {
		nock(TEST_BASE_URL)
			.get(PATH)
			.reply(200, { data: [{ ...trunk, sip_password: 'leaked' }] });
		expect(await run({ resource: 'sipTrunk', operation: 'getMany', returnAll: true })).toEqual(
			items([trunk]),
		);
	});
});
