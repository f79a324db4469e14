import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

describe('Lead → Delete', () => {
	it('sends DELETE /api/user/leads/{id} and outputs deleted, id and message', async () => {
		const scope = nock(TEST_BASE_URL)
			.delete('/api/user/leads/12')
			.reply(200, { message: 'Lead deleted successfully' });
		expect(await run({ resource: 'lead', operation: 'delete', leadId: ' 12 ' })).toEqual(
			items([{ deleted: true, id: 12, message: 'Lead deleted successfully' }]),
		);
		scope.done();
	});

	it.each([
		[404, 'Lead not found'],
		[403, 'Sie haben keine Berechtigung, diesen Lead zu löschen.'],
	])('fails on %i with the service message', async (status, message) => {
		nock(TEST_BASE_URL).delete('/api/user/leads/13').reply(status, { message });
		await expect(run({ resource: 'lead', operation: 'delete', leadId: '13' })).rejects.toThrow(
			message,
		);
	});

	it('refuses a Lead ID that is not a positive whole number before sending', async () => {
		const scope = nock(TEST_BASE_URL).delete(/.*/).reply(200, {});
		await expect(run({ resource: 'lead', operation: 'delete', leadId: '' })).rejects.toThrow(
			'Lead ID must be a positive whole number',
		);
		expect(scope.isDone()).toBe(false);
	});
});
