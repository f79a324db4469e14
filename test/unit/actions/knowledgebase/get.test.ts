import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const kb = { id: 4, name: 'FAQ', description: 'Questions', status: 'active', documents_count: 1, assistants_count: 0 };

describe('Knowledgebase and Document', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	// one round trip through Get, Get Many, Update and Delete; it starts here, at Get
	it('Knowledgebase → Get, Get Many (limit), Update, Delete', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/knowledgebases/4')
			.reply(200, { data: kb })
			.get('/api/user/knowledgebases')
			.reply(200, { data: [kb, { ...kb, id: 5 }, { ...kb, id: 6 }] })
			.put('/api/user/knowledgebases/4', { name: 'FAQ 2' })
			.reply(200, { message: 'Updated', data: { ...kb, name: 'FAQ 2' } })
			.delete('/api/user/knowledgebases/4')
			.reply(200, { message: 'Knowledgebase deleted successfully' });
		expect(await run({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef })).toEqual([item(kb)]);
		expect((await run({ resource: 'knowledgebase', operation: 'getMany', returnAll: false, limit: 2 })).map((i) => i.json.id)).toEqual([4, 5]);
		expect(await run({ resource: 'knowledgebase', operation: 'update', knowledgebaseId: kbRef, updateFields: { name: 'FAQ 2' } })).toEqual([
			item({ ...kb, name: 'FAQ 2' }),
		]);
		expect(await run({ resource: 'knowledgebase', operation: 'delete', knowledgebaseId: kbRef })).toEqual([
			item({ deleted: true, id: 4, message: 'Knowledgebase deleted successfully' }),
		]);
		scope.done();
	});

	it('Knowledgebase → Get of an unknown one shows the service text', async () => {
		nock(TEST_BASE_URL).get('/api/user/knowledgebases/4').reply(404, { error: 'Knowledgebase not found.' });
		await expect(run({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef })).rejects.toThrow('Knowledgebase not found.');
	});
});
