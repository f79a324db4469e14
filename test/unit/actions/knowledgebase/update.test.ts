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

describe('Knowledgebase → Update', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

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
