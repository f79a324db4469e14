import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

const lead = (id: number, campaign: unknown = { id: 7, name: 'Spring' }) => ({
	id,
	campaign_id: 7,
	phone_number: `+4915112345${String(id).padStart(3, '0')}`,
	variables: { customer_name: `Lead ${id}` },
	status: 'created',
	created_at: '2026-11-22 10:00:00',
	updated_at: '2026-11-22 10:00:00',
	...(campaign === undefined ? {} : { campaign }),
	secondary_contacts: [],
});

function page(data: unknown[], current: number, last: number, perPage: number) {
	return {
		current_page: current,
		data,
		last_page: last,
		per_page: perPage,
		total: 0,
		next_page_url: current < last ? `${TEST_BASE_URL}/api/user/leads?page=${current + 1}` : null,
	};
}

describe('Lead → Get Many', () => {
	it('sends every filter and reads all pages with Return All (campaign absent or null is kept as it is)', async () => {
		const qs = {
			status: 'reached-max-retries',
			campaign_id: '7',
			phone_number: '+49151',
			date_from: '2026-11-01',
			date_to: '2026-11-30',
			per_page: '100',
		};
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query({ ...qs, page: '1' })
			.reply(200, page([lead(1), lead(2, null)], 1, 2, 100))
			.get('/api/user/leads')
			.query({ ...qs, page: '2' })
			.reply(200, page([lead(3, undefined)], 2, 2, 100));
		const output = await run({
			resource: 'lead',
			operation: 'getMany',
			returnAll: true,
			filters: {
				status: 'reached-max-retries',
				campaign_id: 7,
				phone_number: ' +49151 ',
				date_from: '2026-11-01',
				date_to: '2026-11-30T23:00:00',
			},
		});
		expect(output).toEqual(items([lead(1), lead(2, null), lead(3, undefined)]));
		scope.done();
	});

	it('with a limit asks for that many per page and stops once it has enough', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query({ per_page: '2', page: '1' })
			.reply(200, page([lead(1), lead(2)], 1, 5, 2));
		expect(
			await run({
				resource: 'lead',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				filters: {},
			}),
		).toEqual(items([lead(1), lead(2)]));
		scope.done();
	});

	it.each([
		[
			{ status: 'lost' },
			'Status must be one of created, scheduled, processing, completed, rescheduled, reached-max-retries, blacklisted, got "lost"',
		],
		[{ campaign_id: -3 }, 'Campaign ID must be a positive whole number, got -3'],
		[{ date_from: '22.11.2026' }, 'From Date must be a date in the form YYYY-MM-DD'],
	])('refuses %j before sending', async (filters, message) => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query(true)
			.reply(200, page([], 1, 1, 50));
		await expect(
			run({ resource: 'lead', operation: 'getMany', returnAll: true, filters }),
		).rejects.toThrow(message);
		expect(scope.isDone()).toBe(false);
	});

	it('fails with the service message of a validation error', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/leads')
			.query(true)
			.reply(422, {
				message: 'The given data was invalid.',
				errors: { date_to: ['The date to must be a date after or equal to date from.'] },
			});
		await expect(
			run({
				resource: 'lead',
				operation: 'getMany',
				returnAll: true,
				filters: { date_from: '2026-11-30', date_to: '2026-11-01' },
			}),
		).rejects.toThrow('date_to: The date to must be a date after or equal to date from.');
	});
});
