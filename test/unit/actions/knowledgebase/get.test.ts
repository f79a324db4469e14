import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const kb = {
	id: 4,
	name: 'FAQ',
	description: 'Questions',
	status: 'active',
	documents_count: 1,
	assistants_count: 0,
};

describe('Knowledgebase → Get', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

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
