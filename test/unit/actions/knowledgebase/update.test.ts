import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { run } from '../helpers';

const kbRef = { __rl: true, mode: 'list', value: '4' };

describe('Knowledgebase and Document', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Knowledgebase → Update with nothing to change is refused', async () => {
		await expect(run({ resource: 'knowledgebase', operation: 'update', knowledgebaseId: kbRef, updateFields: {} })).rejects.toThrow('Update Fields is empty');
	});
});
