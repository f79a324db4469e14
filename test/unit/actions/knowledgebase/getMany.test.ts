import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { run } from '../helpers';

const kb = {
	id: 4,
	name: 'FAQ',
	description: 'Questions',
	status: 'active',
	documents_count: 1,
	assistants_count: 0,
};

describe('Knowledgebase → Get Many', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

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
