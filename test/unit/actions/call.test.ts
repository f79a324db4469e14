import nock from 'nock';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';

const call = (id: number) => ({ id, assistant_name: 'Reception', type: 'inbound', status: 'completed', duration: 42 });
function page(n: number, last: number, size: number, perPage: number) {
	return {
		current_page: n,
		data: Array.from({ length: size }, (_, i) => call((n - 1) * perPage + i + 1)),
		next_page_url: n < last ? `${TEST_BASE_URL}/api/user/calls?page=${n + 1}` : null,
		per_page: perPage,
		last_page: last,
	};
}

describe('Call', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('Get Many with Return All over 250 calls makes exactly 3 requests with every filter', async () => {
		const filters = {
			status: 'completed',
			type: 'inbound',
			phone_number: '+4915112345678',
			assistant_id: '3',
			campaign_id: '9',
			date_from: '2026-11-01',
			date_to: '2026-11-21',
		};
		const scope = nock(TEST_BASE_URL);
		[1, 2, 3].forEach((n) =>
			scope
				.get('/api/user/calls')
				.query({ ...filters, per_page: '100', page: String(n) })
				.reply(200, page(n, 3, n === 3 ? 50 : 100, 100)),
		);
		const { context } = createContext({
			parameters: {
				resource: 'call',
				operation: 'getMany',
				returnAll: true,
				filters: { ...filters, assistant_id: 3, campaign_id: 9, date_from: '2026-11-01T08:00:00.000+01:00', date_to: '2026-11-21' },
			},
		});
		const [output] = await router.call(context);
		expect(output).toHaveLength(250);
		expect(output[249]).toEqual({ json: call(250), pairedItem: { item: 0 } });
		scope.done();
	});

	it('Get Many with Limit 30 makes one request with per_page 30', async () => {
		const scope = nock(TEST_BASE_URL).get('/api/user/calls').query({ per_page: '30', page: '1' }).reply(200, page(1, 9, 30, 30));
		const { context } = createContext({ parameters: { resource: 'call', operation: 'getMany', returnAll: false, limit: 30, filters: {} } });
		const [output] = await router.call(context);
		expect(output).toHaveLength(30);
		scope.done();
	});

	it.each([
		[{ status: 'done' }, 'Status must be one of busy, completed'],
		[{ date_from: '21.11.2026' }, 'From Date must be a date in the form YYYY-MM-DD'],
		[{ date_to: '2026-02-30' }, 'To Date must be a date in the form YYYY-MM-DD'],
		[{ assistant_id: -4 }, 'Assistant ID must be a positive whole number'],
	])('Get Many refuses the filter %j before sending anything', async (filters, message) => {
		const { context } = createContext({ parameters: { resource: 'call', operation: 'getMany', returnAll: true, filters } });
		await expect(router.call(context)).rejects.toThrow(message);
	});

	it('Get returns the call; an unknown call fails with the service text', async () => {
		nock(TEST_BASE_URL).get('/api/user/calls/12').reply(200, { data: call(12) });
		const { context } = createContext({ parameters: { resource: 'call', operation: 'get', callId: '12' } });
		expect((await router.call(context))[0]).toEqual([{ json: call(12), pairedItem: { item: 0 } }]);
		nock(TEST_BASE_URL).get('/api/user/calls/13').reply(404, { message: 'Call not found' });
		const missing = createContext({ parameters: { resource: 'call', operation: 'get', callId: '13' } }).context;
		await expect(router.call(missing)).rejects.toThrow('Call not found');
	});

	it('Make sends assistant, phone and variables and outputs the answer', async () => {
		const answer = { message: 'Call initiated', call_id: 77, status: 'initiated' };
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/make_call', { assistant_id: 2, phone_number: '+4915112345678', variables: { customer_name: 'Ada' } })
			.reply(200, answer);
		const { context } = createContext({
			parameters: {
				resource: 'call',
				operation: 'make',
				assistantId: { __rl: true, mode: 'id', value: '2' },
				phoneNumber: '+4915112345678',
				variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
			},
		});
		expect((await router.call(context))[0]).toEqual([{ json: answer, pairedItem: { item: 0 } }]);
		scope.done();
	});

	it('Make refuses a number that is not E.164', async () => {
		const { context } = createContext({
			parameters: { resource: 'call', operation: 'make', assistantId: { __rl: true, mode: 'id', value: '2' }, phoneNumber: '0151 1234' },
		});
		await expect(router.call(context)).rejects.toThrow('Phone Number must be a phone number in E.164 form');
	});
});
