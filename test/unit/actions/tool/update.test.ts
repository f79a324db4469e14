import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

import { tool, toolRef } from './fixtures';

describe('Mid Call Tool → Update', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Tool → Update sends the fields given (an empty schema as a list) and outputs the tool', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/tools/3', { timeout: 20, schema: [] })
			.reply(200, { message: 'Tool updated', data: { ...tool, timeout: 20 } });
		expect(
			await run({
				resource: 'tool',
				operation: 'update',
				toolId: toolRef,
				updateFields: { timeout: 20, schema: {} },
			}),
		).toEqual([item({ ...tool, timeout: 20 })]);
		scope.done();
	});
});
