import nock from 'nock';

import { router } from '../../../../nodes/VoiceChatAssistant/actions/router';
import { TEST_BASE_URL, createContext } from '../../../helpers/context';
import { items, run } from '../helpers';
import { call, outboundCall } from './fixtures';

function page(n: number, last: number, size: number, perPage: number) {
	return {
		current_page: n,
		data: Array.from({ length: size }, (_, i) => call((n - 1) * perPage + i + 1)),
		next_page_url: n < last ? `${TEST_BASE_URL}/api/user/calls?page=${n + 1}` : null,
		per_page: perPage,
		last_page: last,
	};
}

/** Call → Get Many with these parameters. */
const getMany = (parameters: object) => ({ resource: 'call', operation: 'getMany', ...parameters });

/** Every filter of Get Many as the query sends it, with this status and type. */
const everyFilter = (status: string, type: string) => ({
	status,
	type,
	phone_number: '+4915112345678',
	assistant_id: '3',
	campaign_id: '9',
	date_from: '2026-11-01',
	date_to: '2026-11-21',
});

/** Those filters as the node takes them: the IDs as numbers, the From Date as `dateFrom`. */
const filterParameters = (query: object, dateFrom: string) => ({
	...query,
	assistant_id: 3,
	campaign_id: 9,
	date_from: dateFrom,
});

describe('Call', () => {
	it('Get Many with Return All over 250 calls makes exactly 3 requests with every filter', async () => {
		const filters = everyFilter('completed', 'inbound');
		const scope = nock(TEST_BASE_URL);
		[1, 2, 3].forEach((n) =>
			scope
				.get('/api/user/calls')
				.query({ ...filters, per_page: '100', page: String(n) })
				.reply(200, page(n, 3, n === 3 ? 50 : 100, 100)),
		);
		const { context } = createContext({
			parameters: getMany({
				returnAll: true,
				filters: filterParameters(filters, '2026-11-01T08:00:00.000+01:00'),
			}),
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
			parameters: getMany({ returnAll: false, limit: 30, filters: {} }),
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
		const { context } = createContext({ parameters: getMany({ returnAll: true, filters }) });
		await expect(router.call(context)).rejects.toThrow(message);
	});

	it('Get Many sends every filter (dates as YYYY-MM-DD) and follows the pages', async () => {
		const qs = everyFilter('no-answer', 'outbound');
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query({ ...qs, per_page: '100', page: '1' })
			.reply(200, {
				current_page: 1,
				data: [outboundCall(1), outboundCall(2)],
				next_page_url: `${TEST_BASE_URL}/api/user/calls?page=2`,
			})
			.get('/api/user/calls')
			.query({ ...qs, per_page: '100', page: '2' })
			.reply(200, { current_page: 2, data: [outboundCall(3)], next_page_url: null });
		const output = await run(
			getMany({ returnAll: true, filters: filterParameters(qs, '2026-11-01T10:00:00.000Z') }),
		);
		expect(output).toEqual(items([outboundCall(1), outboundCall(2), outboundCall(3)]));
		scope.done();
	});

	it('Get Many with a limit asks for that many per page', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query({ per_page: '2', page: '1' })
			.reply(200, {
				data: [outboundCall(1), outboundCall(2)],
				next_page_url: `${TEST_BASE_URL}/api/user/calls?page=2`,
			});
		expect(await run(getMany({ returnAll: false, limit: 2, filters: {} }))).toEqual(
			items([outboundCall(1), outboundCall(2)]),
		);
		scope.done();
	});

	it('Get Many refuses an unknown status and a bad date without a request', async () => {
		await expect(run(getMany({ returnAll: true, filters: { status: 'done' } }))).rejects.toThrow(
			'Status must be one of',
		);
		await expect(
			run(getMany({ returnAll: true, filters: { date_from: '21.11.2026' } })),
		).rejects.toThrow('From Date must be a date');
		expect(nock.pendingMocks()).toEqual([]);
	});
});
