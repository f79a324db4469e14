import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

import { tool, toolRef } from './fixtures';

describe('Mid Call Tool → Get', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Tool → Get reads the tool', async () => {
		const scope = nock(TEST_BASE_URL).get('/api/user/tools/3').reply(200, tool);
		expect(await run({ resource: 'tool', operation: 'get', toolId: toolRef })).toEqual([
			item(tool),
		]);
		scope.done();
	});

	it('Tool → Get of an unknown tool shows the service text', async () => {
		nock(TEST_BASE_URL).get('/api/user/tools/3').reply(404, { message: 'Tool not found' });
		await expect(run({ resource: 'tool', operation: 'get', toolId: toolRef })).rejects.toThrow(
			'Tool not found',
		);
	});
});
