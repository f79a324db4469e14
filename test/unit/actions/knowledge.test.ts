import nock from 'nock';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const docRef = { __rl: true, mode: 'id', value: ' 9 ' };
const kb = { id: 4, name: 'FAQ', description: 'Questions', status: 'active', documents_count: 1, assistants_count: 0 };
const doc = { id: 9, name: 'Prices', description: '', type: 'pdf', status: 'active' };
const run = async (parameters: any) => (await router.call(createContext({ parameters }).context))[0];
const item = (json: unknown) => ({ json, pairedItem: { item: 0 } });

describe('Knowledgebase and Document', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Knowledgebase → Create sends name and description', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/knowledgebases', { name: 'FAQ', description: 'Questions' }).reply(201, { message: 'Created', data: kb });
		expect(await run({ resource: 'knowledgebase', operation: 'create', name: 'FAQ', description: 'Questions' })).toEqual([item(kb)]);
		scope.done();
	});

	it('Knowledgebase → Create leaves out an empty description', async () => {
		const scope = nock(TEST_BASE_URL).post('/api/user/knowledgebases', { name: 'FAQ' }).reply(201, { data: kb });
		await run({ resource: 'knowledgebase', operation: 'create', name: 'FAQ', description: '' });
		scope.done();
	});

	it.each([
		[{ name: '' }, 'Name is required'],
		[{ name: 'x'.repeat(256) }, 'Name is too long: 256 characters, at most 255 are allowed'],
		[{ name: 'FAQ', description: 'y'.repeat(300) }, 'Description is too long: 300 characters'],
	])('Knowledgebase → Create refuses %#', async (fields, message) => {
		await expect(run({ resource: 'knowledgebase', operation: 'create', ...fields })).rejects.toThrow(message);
	});

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

	it('Knowledgebase → Update with nothing to change is refused', async () => {
		await expect(run({ resource: 'knowledgebase', operation: 'update', knowledgebaseId: kbRef, updateFields: {} })).rejects.toThrow('Update Fields is empty');
	});

	it('Knowledgebase → Get of an unknown one shows the service text', async () => {
		nock(TEST_BASE_URL).get('/api/user/knowledgebases/4').reply(404, { error: 'Knowledgebase not found.' });
		await expect(run({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef })).rejects.toThrow('Knowledgebase not found.');
	});

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

	it.each([
		[404, { error: 'Document not found.' }],
		[404, { error: 'Knowledgebase not found.' }],
		[500, { error: 'Failed to delete document. Please try again.' }],
	])('Document → Delete shows the service answer %i %j', async (status, body) => {
		nock(TEST_BASE_URL).delete('/api/user/knowledgebases/4/documents/9').reply(status, body);
		await expect(run({ resource: 'document', operation: 'delete', knowledgebaseId: kbRef, documentId: docRef })).rejects.toThrow(body.error);
	});

	it('Document → Update refuses a name over 255 characters and a non-numeric ID', async () => {
		await expect(
			run({ resource: 'document', operation: 'update', knowledgebaseId: kbRef, documentId: docRef, updateFields: { name: 'n'.repeat(256) } }),
		).rejects.toThrow('Name is too long');
		await expect(
			run({ resource: 'document', operation: 'get', knowledgebaseId: kbRef, documentId: { __rl: true, mode: 'id', value: 'abc' } }),
		).rejects.toThrow('Document must be a positive whole number, got "abc"');
	});
});
