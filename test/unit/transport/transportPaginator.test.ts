/**
 * The transport's paginator: Return All reads every page (100 a page, a few
 * at a time, in the service's order, on the credential's host), Limit stops
 * as soon as it has enough.
 */
import nock from 'nock';
import { NodeApiError } from 'n8n-workflow';

import { PAGES_IN_FLIGHT, apiRequestAllItems } from '../../../nodes/VoiceChatAssistant/transport';
import { TEST_BASE_URL } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';
import { ctx, failure } from './transportHelpers';

describe('transport', () => {
	fakeClockPerTest();

	describe('paginator', () => {
		const page = (n: number, last: number, size: number, perPage: number) => ({
			current_page: n,
			data: Array.from({ length: size }, (_, i) => ({ id: (n - 1) * perPage + i + 1 })),
			next_page_url: n < last ? `https://elsewhere.example/api/user/calls?page=${n + 1}` : null,
			last_page: last,
			per_page: perPage,
			total: (last - 1) * perPage + size,
		});
		/** The requests of pages 1, 2, … of the call list with `query`, answered [status, body] in turn. */
		const listRequests = (answers: Array<[number, object]>, query: object = {}, perPage = 100) => {
			const scope = nock(TEST_BASE_URL);
			answers.forEach(([status, body], i) =>
				scope
					.get('/api/user/calls')
					.query({ ...query, per_page: String(perPage), page: String(i + 1) })
					.reply(status, body),
			);
			return scope;
		};

		it('Return All reads every page with per_page 100, on the credential host, until next_page_url is null', async () => {
			const scope = listRequests(
				[
					[200, page(1, 3, 100, 100)],
					[200, page(2, 3, 100, 100)],
					[200, page(3, 3, 50, 100)],
				],
				{ status: 'completed' },
			);
			const all = await apiRequestAllItems.call(
				ctx(),
				'/api/user/calls',
				{ status: 'completed' },
				undefined,
			);
			expect(all).toHaveLength(250);
			expect(all[249]).toEqual({ id: 250 });
			scope.done();
		});

		it('Return All reads the pages after the first a few at a time and keeps them in page order', async () => {
			let inFlight = 0;
			let most = 0;
			const scope = nock(TEST_BASE_URL);
			for (let n = 1; n <= 6; n++) {
				scope
					.get('/api/user/calls')
					.query({ per_page: '100', page: String(n) })
					// later pages answer sooner, so arrival order differs from page order
					.reply((_uri, _body, callback) => {
						inFlight++;
						most = Math.max(most, inFlight);
						setTimeout(
							() => {
								inFlight--;
								callback(null, [200, page(n, 6, n === 6 ? 10 : 100, 100)]);
							},
							60 - n * 8,
						);
					});
			}
			const all = (await apiRequestAllItems.call(
				ctx(),
				'/api/user/calls',
				{},
				undefined,
			)) as Array<{ id: number }>;
			expect(all.map((c) => c.id)).toEqual(Array.from({ length: 510 }, (_, i) => i + 1));
			expect(most).toBeGreaterThan(1);
			expect(most).toBeLessThanOrEqual(PAGES_IN_FLIGHT);
			scope.done();
		});

		it('Return All goes on page by page when the list grew while it was read', async () => {
			const scope = listRequests([
				[200, page(1, 2, 100, 100)],
				[200, page(2, 3, 100, 100)],
				[200, page(3, 3, 1, 100)],
			]);
			const all = await apiRequestAllItems.call(ctx(), '/api/user/calls', {}, undefined);
			expect(all).toHaveLength(201);
			scope.done();
		});

		it('Return All fails with the service message when a later page fails', async () => {
			listRequests([
				[200, page(1, 3, 100, 100)],
				[200, page(2, 3, 100, 100)],
				[403, { message: 'This action is unauthorized.' }],
			]);
			const error = await failure(apiRequestAllItems.call(ctx(), '/api/user/calls', {}, undefined));
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toContain('This action is unauthorized.');
		});

		it('Limit stops as soon as it has enough', async () => {
			const scope = listRequests([[200, page(1, 9, 30, 30)]], {}, 30);
			const some = (await apiRequestAllItems.call(ctx(), '/api/user/calls', {}, 30)) as Array<{
				id: number;
			}>;
			expect(some.map((c) => c.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
			scope.done();
		});

		it('Limit over 100 reads pages of 100 and cuts the last', async () => {
			const scope = listRequests([
				[200, page(1, 3, 100, 100)],
				[200, page(2, 3, 100, 100)],
			]);
			const some = await apiRequestAllItems.call(ctx(), '/api/user/calls', {}, 150);
			expect(some).toHaveLength(150);
			scope.done();
		});
	});
});
