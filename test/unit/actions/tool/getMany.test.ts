import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { run } from '../helpers';

import { tool } from './fixtures';

describe('Mid Call Tool → Get Many', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Tool → Get Many reads a bare array', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/tools')
			.reply(200, [tool, { ...tool, id: 4 }]);
		expect(
			(await run({ resource: 'tool', operation: 'getMany', returnAll: true })).map(
				(i) => i.json.id,
			),
		).toEqual([3, 4]);
		scope.done();
	});
});
