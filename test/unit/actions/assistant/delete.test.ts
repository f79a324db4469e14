import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, items, rl, run } from '../helpers';

const ref = { __rl: true, mode: 'list', value: '5' };

describe('Assistant (all but create and update)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Delete sends DELETE and outputs what was deleted', async () => {
		nock(TEST_BASE_URL)
			.delete('/api/user/assistant/5')
			.reply(200, { message: 'Assistant deleted successfully' });
		expect(await run({ resource: 'assistant', operation: 'delete', assistantId: ref })).toEqual([
			item({ deleted: true, id: 5, message: 'Assistant deleted successfully' }),
		]);
	});
});

describe('Assistant (lists, delete, webhooks)', () => {
	it('Delete sends DELETE /api/user/assistant/{id}', async () => {
		const scope = nock(TEST_BASE_URL)
			.delete('/api/user/assistant/5')
			.reply(200, { message: 'Assistant deleted successfully' });
		expect(
			await run({ resource: 'assistant', operation: 'delete', assistantId: rl('5', 'id') }),
		).toEqual(items([{ deleted: true, id: 5, message: 'Assistant deleted successfully' }]));
		scope.done();
	});
});
