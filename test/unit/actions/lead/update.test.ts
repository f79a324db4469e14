import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

const base = { resource: 'lead', operation: 'update', leadId: '12' };

describe('Lead → Update', () => {
	it('sends PUT /api/leads/{id} (no /user/ segment) with the fields set, and outputs them with the message', async () => {
		const body = {
			campaign_id: 3,
			phone_number: '+4915112345678',
			status: 'completed',
			variables: { plan: 'gold', customer_name: 'Ada' },
		};
		const scope = nock(TEST_BASE_URL)
			.put('/api/leads/12', body)
			.reply(200, { message: 'Lead successfully updated' });
		const output = await run({
			...base,
			updateFields: {
				campaign_id: 3,
				phone_number: '+49 151 1234-5678',
				status: 'completed',
				variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
				variablesJson: '{"plan":"gold","customer_name":"the pair wins"}',
			},
		});
		expect(output).toEqual(
			items([{ id: 12, updated: true, message: 'Lead successfully updated', ...body }]),
		);
		scope.done();
	});

	it('sends only the status when only the status is set (Variables (JSON) left at {})', async () => {
		const scope = nock(TEST_BASE_URL)
			.put(
				'/api/leads/12',
				(body) => JSON.stringify(body) === JSON.stringify({ status: 'reached-max-retries' }),
			)
			.reply(200, { message: 'Lead successfully updated' });
		expect(
			await run({ ...base, updateFields: { status: 'reached-max-retries', variablesJson: '{}' } }),
		).toEqual(
			items([
				{
					id: 12,
					updated: true,
					message: 'Lead successfully updated',
					status: 'reached-max-retries',
				},
			]),
		);
		scope.done();
	});

	it.each([
		[{}, 'Update Fields is empty: add Campaign ID, Phone Number, Status or Variables to change'],
		[{ variablesJson: '{}' }, 'Update Fields is empty'],
		[{ phone_number: '0151 1234567' }, 'Phone Number must be a phone number in E.164 form'],
		[
			{ status: 'blacklisted' },
			'Status must be one of created, completed, reached-max-retries, got "blacklisted"',
		],
		[{ campaign_id: 1.5 }, 'Campaign ID must be a positive whole number, got 1.5'],
		[{ variablesJson: '[1]' }, 'Update Fields → Variables (JSON) must be a JSON object'],
	])('refuses %j before sending', async (updateFields, message) => {
		const scope = nock(TEST_BASE_URL).put('/api/leads/12').reply(200, {});
		await expect(run({ ...base, updateFields })).rejects.toThrow(message);
		expect(scope.isDone()).toBe(false);
	});

	it('refuses a Lead ID that is not a number', async () => {
		await expect(
			run({ ...base, leadId: 'abc', updateFields: { status: 'completed' } }),
		).rejects.toThrow('Lead ID must be a positive whole number, got "abc"');
	});

	it('fails with the service message for an unknown lead (404, or a not-found message with HTTP 200)', async () => {
		nock(TEST_BASE_URL).put('/api/leads/12').reply(404, { message: 'Lead not found' });
		await expect(run({ ...base, updateFields: { status: 'completed' } })).rejects.toThrow(
			'Lead not found',
		);
		nock(TEST_BASE_URL).put('/api/leads/12').reply(200, { message: 'Lead not found' });
		await expect(run({ ...base, updateFields: { status: 'completed' } })).rejects.toThrow(
			'Lead not found',
		);
	});
});
