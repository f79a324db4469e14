import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const docRef = { __rl: true, mode: 'id', value: ' 9 ' };
const doc = { id: 9, name: 'Prices', description: '', type: 'pdf', status: 'active' };

describe('Knowledgebase and Document', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	// one round trip through Get, Get Many, Update and Delete; it starts here, at Get
	it('Document → Get, Get Many (bare array or {data}), Update, Delete', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/knowledgebases/4/documents/9')
			.reply(200, { data: doc })
			.get('/api/user/knowledgebases/4/documents')
			.reply(200, [doc, { ...doc, id: 10 }])
			.get('/api/user/knowledgebases/4/documents')
			.reply(200, { data: [doc] })
			.put('/api/user/knowledgebases/4/documents/9', { name: 'Price list', description: '2027' })
			.reply(200, { message: 'Document updated successfully', data: { ...doc, name: 'Price list', description: '2027' } })
			.delete('/api/user/knowledgebases/4/documents/9')
			.reply(200, { message: 'Document deleted successfully' });
		const base = { resource: 'document', knowledgebaseId: kbRef, documentId: docRef };
		expect(await run({ ...base, operation: 'get' })).toEqual([item(doc)]);
		expect(await run({ ...base, operation: 'getMany', returnAll: true })).toHaveLength(2);
		expect(await run({ ...base, operation: 'getMany', returnAll: true })).toEqual([item(doc)]);
		expect(await run({ ...base, operation: 'update', updateFields: { name: 'Price list', description: '2027' } })).toEqual([
			item({ ...doc, name: 'Price list', description: '2027' }),
		]);
		expect(await run({ ...base, operation: 'delete' })).toEqual([item({ deleted: true, id: 9, message: 'Document deleted successfully' })]);
		scope.done();
	});
});
