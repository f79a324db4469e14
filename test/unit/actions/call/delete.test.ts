import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { items, run } from '../helpers';

describe('Call → Delete', () => {
	it('sends DELETE /api/user/calls/{id} and outputs deleted, id and message', async () => {
		const scope = nock(TEST_BASE_URL)
			.delete('/api/user/calls/42')
			.reply(200, { message: 'Call deleted successfully' });
		expect(await run({ resource: 'call', operation: 'delete', callId: '42' })).toEqual(
			items([{ deleted: true, id: 42, message: 'Call deleted successfully' }]),
		);
		scope.done();
	});

	it('fails with the service message for an unknown call', async () => {
		nock(TEST_BASE_URL)
			.delete('/api/user/calls/43')
			.reply(404, { message: 'Call not found or does not belong to the authenticated user' });
		await expect(run({ resource: 'call', operation: 'delete', callId: 43 })).rejects.toThrow(
			'Call not found or does not belong to the authenticated user',
		);
	});

	it('refuses a Call ID that is not a positive whole number before sending', async () => {
		const scope = nock(TEST_BASE_URL).delete(/.*/).reply(200, {});
		await expect(run({ resource: 'call', operation: 'delete', callId: '4.2' })).rejects.toThrow(
			'Call ID must be a positive whole number, got "4.2"',
		);
		expect(scope.isDone()).toBe(false);
	});
});
