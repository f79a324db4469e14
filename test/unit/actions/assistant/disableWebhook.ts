/**
 * The suite shared by Assistant → Disable Inbound Webhook and Disable
 * Post-Call Webhook: each posts {assistant_id} to its own path and outputs
 * the service message.
 */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, rl, run } from '../helpers';

export function describeDisableWebhook(operation: string, path: string) {
	describe(`Assistant → ${operation}`, () => {
		it(`posts {assistant_id} to ${path}`, async () => {
			const scope = nock(TEST_BASE_URL)
				.post(path, { assistant_id: 5 })
				.reply(200, { message: 'Disabled' });
			expect(await run({ resource: 'assistant', operation, assistantId: rl('5') })).toEqual([
				item({ success: true, assistant_id: 5, message: 'Disabled' }),
			]);
			scope.done();
		});
	});
}
