import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../../helpers/context';

describe('Account', () => {
	it('Get Profile sends GET /api/user/me with the Bearer key and returns the unwrapped profile', async () => {
		const scope = nock(TEST_BASE_URL, {
			reqheaders: { authorization: `Bearer ${TEST_API_KEY}`, accept: 'application/json' },
		})
			.get('/api/user/me')
			.reply(200, { name: 'Ada Lovelace', email: 'ada@example.com', total_balance: 25.5 });

		const { context } = createContext({
			parameters: { resource: 'account', operation: 'getProfile' },
		});
		const [output] = await router.call(context);

		expect(output).toEqual([
			{
				json: { name: 'Ada Lovelace', email: 'ada@example.com', total_balance: 25.5 },
				pairedItem: { item: 0 },
			},
		]);
		scope.done();
	});
});
