import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const docRef = { __rl: true, mode: 'id', value: ' 9 ' };
const doc = { id: 9, name: 'Prices', description: '', type: 'pdf', status: 'active' };
const base = { resource: 'document', knowledgebaseId: kbRef, documentId: docRef };

describe('Document → Update', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Document → Update sends the fields given and outputs the document', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/knowledgebases/4/documents/9', { name: 'Price list', description: '2027' })
			.reply(200, {
				message: 'Document updated successfully',
				data: { ...doc, name: 'Price list', description: '2027' },
			});
		expect(
			await run({
				...base,
				operation: 'update',
				updateFields: { name: 'Price list', description: '2027' },
			}),
		).toEqual([item({ ...doc, name: 'Price list', description: '2027' })]);
		scope.done();
	});

	// the non-numeric ID is checked through Get
	it('Document → Update refuses a name over 255 characters and a non-numeric ID', async () => {
		await expect(
			run({
				resource: 'document',
				operation: 'update',
				knowledgebaseId: kbRef,
				documentId: docRef,
				updateFields: { name: 'n'.repeat(256) },
			}),
		).rejects.toThrow('Name is too long');
		await expect(
			run({
				resource: 'document',
				operation: 'get',
				knowledgebaseId: kbRef,
				documentId: { __rl: true, mode: 'id', value: 'abc' },
			}),
		).rejects.toThrow('Document must be a positive whole number, got "abc"');
	});
});
