import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, run } from '../helpers';
import { call, outboundCall } from './fixtures';

describe('Call', () => {
	it('Get returns the call; an unknown call fails with the service text', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/calls/12')
			.reply(200, { data: call(12) });
		const { context } = createContext({
			parameters: { resource: 'call', operation: 'get', callId: '12' },
		});
		expect((await router.call(context))[0]).toEqual([{ json: call(12), pairedItem: { item: 0 } }]);
		nock(TEST_BASE_URL).get('/api/user/calls/13').reply(404, { message: 'Call not found' });
		const missing = createContext({
			parameters: { resource: 'call', operation: 'get', callId: '13' },
		}).context;
		await expect(router.call(missing)).rejects.toThrow('Call not found');
	});

	it('Get reads GET /api/user/calls/{id} and unwraps data', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls/42')
			.reply(200, { data: outboundCall(42) });
		expect(await run({ resource: 'call', operation: 'get', callId: '42' })).toEqual(
			items([outboundCall(42)]),
		);
		scope.done();
	});
});
