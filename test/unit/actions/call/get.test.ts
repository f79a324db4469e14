import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, run } from '../helpers';

const call = (id: number) => ({
	id,
	assistant_name: 'Reception',
	type: 'inbound',
	status: 'completed',
	duration: 42,
});

describe('Call', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

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
});

describe('Call', () => {
	const call = (id: number) => ({ id, type: 'outbound', status: 'completed' });

	it('Get reads GET /api/user/calls/{id} and unwraps data', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls/42')
			.reply(200, { data: call(42) });
		expect(await run({ resource: 'call', operation: 'get', callId: '42' })).toEqual(
			items([call(42)]),
		);
		scope.done();
	});
});
