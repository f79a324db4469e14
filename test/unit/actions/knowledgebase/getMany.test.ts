import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { KNOWLEDGEBASE as kb } from './fixtures';
import { run } from '../helpers';

describe('Knowledgebase → Get Many', () => {
	it('Knowledgebase → Get Many applies the limit', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/knowledgebases')
			.reply(200, { data: [kb, { ...kb, id: 5 }, { ...kb, id: 6 }] });
		expect(
			(
				await run({ resource: 'knowledgebase', operation: 'getMany', returnAll: false, limit: 2 })
			).map((i) => i.json.id),
		).toEqual([4, 5]);
		scope.done();
	});
});
