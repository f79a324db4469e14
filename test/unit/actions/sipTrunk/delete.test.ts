/** SIP Trunk → Delete: checked to be a SIP trunk, then deleted through the release endpoint. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';
import { withTrunkIds } from './fixtures';

describe('SIP Trunk → Delete', () => {
	it('reads the trunk, then deletes it with DELETE /api/user/phone-numbers/{id}', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers/sip-trunks/9')
			.reply(200, { data: withTrunkIds })
			.delete('/api/user/phone-numbers/9')
			.reply(200, { message: 'Phone number deleted successfully.' });
		expect(await run({ resource: 'sipTrunk', operation: 'delete', sipTrunkId: rl('9') })).toEqual([
			item({ deleted: true, id: 9, message: 'Phone number deleted successfully.' }),
		]);
		scope.done();
	});

	it('does not release a number that is no SIP trunk', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers/sip-trunks/1')
			.reply(404, { error: 'SIP trunk not found.' });
		const release = nock(TEST_BASE_URL).delete('/api/user/phone-numbers/1').reply(200, {});
		await expect(
			run({ resource: 'sipTrunk', operation: 'delete', sipTrunkId: rl('1') }),
		).rejects.toThrow('SIP trunk not found.');
		scope.done();
		expect(release.isDone()).toBe(false);
	});

	it('shows the service text of a failed delete', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/phone-numbers/sip-trunks/9')
			.reply(200, { data: withTrunkIds })
			.delete('/api/user/phone-numbers/9')
			.times(3)
			.reply(500, {
				error: 'Failed to release phone number. Please try again or contact support.',
			});
		await expect(
			run({ resource: 'sipTrunk', operation: 'delete', sipTrunkId: rl('9') }),
		).rejects.toThrow('Failed to release phone number.');
	});
});
