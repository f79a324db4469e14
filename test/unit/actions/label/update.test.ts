/** Label → Update. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

const resource = 'label';
const noun = 'Label';

describe('Label → Update', () => {
	it('Update sends only the fields given; an empty update is refused', async () => {
		const scope = nock(TEST_BASE_URL)
			.put(`/api/user/${resource}/3`, { color: 'red' })
			.reply(200, {
				message: `${noun} updated successfully`,
				data: { id: 3, name: 'A', color: 'red' },
			});
		expect(
			await run({
				resource,
				operation: 'update',
				[`${resource}Id`]: rl('3'),
				updateFields: { color: 'red' },
			}),
		).toEqual([item({ id: 3, name: 'A', color: 'red' })]);
		scope.done();
		await expect(
			run({ resource, operation: 'update', [`${resource}Id`]: rl('3'), updateFields: {} }),
		).rejects.toThrow('Update Fields is empty');
	});
});
