/** Conversation → Disable AI: POST /api/automate/conversations/{uuid}/disable-ai without a body. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { item, run } from '../helpers';

const UUID = '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c';
const path = `/api/automate/conversations/${UUID}/disable-ai`;

describe('Conversation: Disable AI', () => {
	it('posts no body and outputs { id, ai_enabled: false }', async () => {
		let sentBody: unknown = 'unset';
		const scope = nock(TEST_BASE_URL)
			.post(path, (body) => {
				sentBody = body;
				return true;
			})
			.reply(200, { status: true, ai_enabled: false });
		expect(
			await run({ resource: 'conversation', operation: 'disableAi', conversationId: ` ${UUID} ` }),
		).toEqual([item({ id: UUID, ai_enabled: false })]);
		expect(
			sentBody === '' ||
				sentBody === undefined ||
				(typeof sentBody === 'object' && Object.keys(sentBody as object).length === 0),
		).toBe(true);
		scope.done();
	});

	it('an answer without ai_enabled still says the AI is off', async () => {
		nock(TEST_BASE_URL).post(path).reply(200, { status: true, message: 'AI disabled' });
		expect(
			await run({ resource: 'conversation', operation: 'disableAi', conversationId: UUID }),
		).toEqual([item({ id: UUID, message: 'AI disabled', ai_enabled: false })]);
	});

	it('refuses an ID that is not a UUID before sending', async () => {
		await expect(
			run({ resource: 'conversation', operation: 'disableAi', conversationId: '42' }),
		).rejects.toThrow('Conversation ID must be a UUID');
	});

	it('an unknown conversation and a refused key fail with the service text', async () => {
		nock(TEST_BASE_URL)
			.post(path)
			.reply(404, { status: false, error: 'Conversation not found' })
			.post(path)
			.reply(401, { error: 'Unauthorized' });
		await expect(
			run({ resource: 'conversation', operation: 'disableAi', conversationId: UUID }),
		).rejects.toThrow('Conversation not found');
		await expect(
			run({ resource: 'conversation', operation: 'disableAi', conversationId: UUID }),
		).rejects.toThrow('Unauthorized');
	});
});
