import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';

describe('Account', () => {
	it('Get API Keys returns one item per key', async () => {
		const keys = [
			{ id: 1, name: 'CI', last_used_at: null, created_at: '2026-01-01T00:00:00Z' },
			{
				id: 2,
				name: 'Zapier',
				last_used_at: '2026-02-01T00:00:00Z',
				created_at: '2026-01-02T00:00:00Z',
			},
		];
		const scope = nock(TEST_BASE_URL).get('/api/user/api-keys').reply(200, { api_keys: keys });
		const { context } = createContext({
			parameters: { resource: 'account', operation: 'getApiKeys' },
		});
		const [output] = await router.call(context);
		expect(output).toEqual(keys.map((json) => ({ json, pairedItem: { item: 0 } })));
		scope.done();
	});

	it('Get API Keys with an empty list returns no items', async () => {
		nock(TEST_BASE_URL).get('/api/user/api-keys').reply(200, { api_keys: [] });
		const { context } = createContext({
			parameters: { resource: 'account', operation: 'getApiKeys' },
		});
		const [output] = await router.call(context);
		expect(output).toEqual([]);
	});
});
