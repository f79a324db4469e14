import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { KNOWLEDGEBASE_REF as kbRef } from './fixtures';
import { item, run } from '../helpers';

describe('Knowledgebase → Delete', () => {
	it('Knowledgebase → Delete outputs deleted with the service message', async () => {
		const scope = nock(TEST_BASE_URL)
			.delete('/api/user/knowledgebases/4')
			.reply(200, { message: 'Knowledgebase deleted successfully' });
		expect(
			await run({ resource: 'knowledgebase', operation: 'delete', knowledgebaseId: kbRef }),
		).toEqual([item({ deleted: true, id: 4, message: 'Knowledgebase deleted successfully' })]);
		scope.done();
	});
});
