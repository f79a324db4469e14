import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const docRef = { __rl: true, mode: 'id', value: ' 9 ' };
const doc = { id: 9, name: 'Prices', description: '', type: 'pdf', status: 'active' };
const base = { resource: 'document', knowledgebaseId: kbRef, documentId: docRef };

describe('Document → Get', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Document → Get reads the document (the ID trimmed)', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/knowledgebases/4/documents/9')
			.reply(200, { data: doc });
		expect(await run({ ...base, operation: 'get' })).toEqual([item(doc)]);
		scope.done();
	});
});
