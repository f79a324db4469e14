import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };
const docRef = { __rl: true, mode: 'id', value: ' 9 ' };

describe('Knowledgebase and Document', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	// the non-numeric ID is checked through Get
	it('Document → Update refuses a name over 255 characters and a non-numeric ID', async () => {
		await expect(
			run({ resource: 'document', operation: 'update', knowledgebaseId: kbRef, documentId: docRef, updateFields: { name: 'n'.repeat(256) } }),
		).rejects.toThrow('Name is too long');
		await expect(
			run({ resource: 'document', operation: 'get', knowledgebaseId: kbRef, documentId: { __rl: true, mode: 'id', value: 'abc' } }),
		).rejects.toThrow('Document must be a positive whole number, got "abc"');
	});
});
