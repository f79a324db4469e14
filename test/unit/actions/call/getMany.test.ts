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
				filters: {
					...filters,
					assistant_id: 3,
					campaign_id: 9,
					date_from: '2026-11-01T08:00:00.000+01:00',
					date_to: '2026-11-21',
				},
			},
		});
		const [output] = await router.call(context);
		expect(output).toHaveLength(250);
		expect(output[249]).toEqual({ json: call(250), pairedItem: { item: 0 } });
		scope.done();
	});

	it('Get Many with Limit 30 makes one request with per_page 30', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query({ per_page: '30', page: '1' })
			.reply(200, page(1, 9, 30, 30));
		const { context } = createContext({
			parameters: {
				resource: 'call',
				operation: 'getMany',
				returnAll: false,
				limit: 30,
				filters: {},
			},
		});
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
		const { context } = createContext({
			parameters: { resource: 'call', operation: 'getMany', returnAll: true, filters },
		});
		await expect(router.call(context)).rejects.toThrow(message);
	});
});

describe('Call', () => {
	const call = (id: number) => ({ id, type: 'outbound', status: 'completed' });

	it('Get Many sends every filter (dates as YYYY-MM-DD) and follows the pages', async () => {
		const qs = {
			status: 'no-answer',
			type: 'outbound',
			phone_number: '+4915112345678',
			assistant_id: '3',
			campaign_id: '9',
			date_from: '2026-11-01',
			date_to: '2026-11-21',
		};
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query({ ...qs, per_page: '100', page: '1' })
			.reply(200, {
				current_page: 1,
				data: [call(1), call(2)],
				next_page_url: `${TEST_BASE_URL}/api/user/calls?page=2`,
			})
			.get('/api/user/calls')
			.query({ ...qs, per_page: '100', page: '2' })
			.reply(200, { current_page: 2, data: [call(3)], next_page_url: null });
		const output = await run({
			resource: 'call',
			operation: 'getMany',
			returnAll: true,
			filters: {
				...qs,
				assistant_id: 3,
				campaign_id: 9,
				date_from: '2026-11-01T10:00:00.000Z',
				date_to: '2026-11-21',
			},
		});
		expect(output).toEqual(items([call(1), call(2), call(3)]));
		scope.done();
	});

	it('Get Many with a limit asks for that many per page', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query({ per_page: '2', page: '1' })
			.reply(200, {
				data: [call(1), call(2)],
				next_page_url: `${TEST_BASE_URL}/api/user/calls?page=2`,
			});
		expect(
			await run({
				resource: 'call',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				filters: {},
			}),
		).toEqual(items([call(1), call(2)]));
		scope.done();
	});

	it('Get Many refuses an unknown status and a bad date without a request', async () => {
		await expect(
			run({ resource: 'call', operation: 'getMany', returnAll: true, filters: { status: 'done' } }),
		).rejects.toThrow('Status must be one of');
		await expect(
			run({
				resource: 'call',
				operation: 'getMany',
				returnAll: true,
				filters: { date_from: '21.11.2026' },
			}),
		).rejects.toThrow('From Date must be a date');
		expect(nock.pendingMocks()).toEqual([]);
	});
});
