import nock from 'nock';

import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

import { toolRef } from './fixtures';

describe('Mid Call Tool → Delete', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Tool → Delete outputs deleted with the service message', async () => {
		const scope = nock(TEST_BASE_URL)
			.delete('/api/user/tools/3')
			.reply(200, { message: 'Tool deleted' });
		expect(await run({ resource: 'tool', operation: 'delete', toolId: toolRef })).toEqual([
			item({ deleted: true, id: 3, message: 'Tool deleted' }),
		]);
		scope.done();
	});
});
