import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const docRef = { __rl: true, mode: 'id', value: ' 9 ' };
const base = { resource: 'document', knowledgebaseId: kbRef, documentId: docRef };

describe('Document → Delete', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Document → Delete outputs deleted with the service message', async () => {
		const scope = nock(TEST_BASE_URL)
			.delete('/api/user/knowledgebases/4/documents/9')
			.reply(200, { message: 'Document deleted successfully' });
		expect(await run({ ...base, operation: 'delete' })).toEqual([
			item({ deleted: true, id: 9, message: 'Document deleted successfully' }),
		]);
		scope.done();
	});

	it.each([
		[404, { error: 'Document not found.' }],
		[404, { error: 'Knowledgebase not found.' }],
		[500, { error: 'Failed to delete document. Please try again.' }],
	])('Document → Delete shows the service answer %i %j', async (status, body) => {
		// a 500 is sent again twice (a delete is safe to repeat): the third is the answer
		nock(TEST_BASE_URL)
			.delete('/api/user/knowledgebases/4/documents/9')
			.times(status === 500 ? 3 : 1)
			.reply(status, body);
		await expect(
			run({
				resource: 'document',
				operation: 'delete',
				knowledgebaseId: kbRef,
				documentId: docRef,
			}),
		).rejects.toThrow(body.error);
	});
});
