import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { KNOWLEDGEBASE as kb, KNOWLEDGEBASE_REF as kbRef } from './fixtures';
import { item, run } from '../helpers';

describe('Knowledgebase → Update', () => {
	it('Knowledgebase → Update sends the fields given and outputs the knowledgebase', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/knowledgebases/4', { name: 'FAQ 2' })
			.reply(200, { message: 'Updated', data: { ...kb, name: 'FAQ 2' } });
		expect(
			await run({
				resource: 'knowledgebase',
				operation: 'update',
				knowledgebaseId: kbRef,
				updateFields: { name: 'FAQ 2' },
			}),
		).toEqual([item({ ...kb, name: 'FAQ 2' })]);
		scope.done();
	});

	it('Knowledgebase → Update with nothing to change is refused', async () => {
		await expect(
			run({
				resource: 'knowledgebase',
				operation: 'update',
				knowledgebaseId: kbRef,
				updateFields: {},
			}),
		).rejects.toThrow('Update Fields is empty');
	});
});
