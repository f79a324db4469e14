import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { KNOWLEDGEBASE as kb, KNOWLEDGEBASE_REF as kbRef } from './fixtures';
import { item, run } from '../helpers';

describe('Knowledgebase → Get', () => {
	it('Knowledgebase → Get reads the knowledgebase', async () => {
		const scope = nock(TEST_BASE_URL).get('/api/user/knowledgebases/4').reply(200, { data: kb });
		expect(
			await run({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }),
		).toEqual([item(kb)]);
		scope.done();
	});

	it('Knowledgebase → Get of an unknown one shows the service text', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/knowledgebases/4')
			.reply(404, { error: 'Knowledgebase not found.' });
		await expect(
			run({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }),
		).rejects.toThrow('Knowledgebase not found.');
	});
});
