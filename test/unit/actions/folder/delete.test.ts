/** Folder → Delete. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

const resource = 'folder';
const noun = 'Folder';

describe('Folder → Delete', () => {
	it('Delete outputs deleted with the message; an unknown one fails with the service message', async () => {
		nock(TEST_BASE_URL)
			.delete(`/api/user/${resource}/3`)
			.reply(200, { message: `${noun} deleted successfully` });
		expect(await run({ resource, operation: 'delete', [`${resource}Id`]: rl('3', 'id') })).toEqual([
			item({ deleted: true, id: 3, message: `${noun} deleted successfully` }),
		]);
		nock(TEST_BASE_URL)
			.delete(`/api/user/${resource}/4`)
			.reply(404, { message: `${noun} not found` });
		await expect(
			run({ resource, operation: 'delete', [`${resource}Id`]: rl('4') }),
		).rejects.toThrow(`${noun} not found`);
	});
});
