/** Conversation → Enable AI: POST /api/automate/conversations/{uuid}/enable-ai without a body. */
import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { installFakeClock } from '../../../helpers/fakeClock';
import { item, run } from '../helpers';

const UUID = '5A1D0C3E-2B4F-4E6A-8C9D-0E1F2A3B4C5D';
const path = `/api/automate/conversations/${UUID}/enable-ai`;

describe('Conversation: Enable AI', () => {
	it('posts to enable-ai and outputs { id, ai_enabled: true }', async () => {
		const scope = nock(TEST_BASE_URL).post(path).reply(200, { status: true, ai_enabled: true });
		expect(
			await run({ resource: 'conversation', operation: 'enableAi', conversationId: UUID }),
		).toEqual([item({ id: UUID, ai_enabled: true })]);
		scope.done();
	});

	it('is sent again after a 502 (switching twice is harmless)', async () => {
		const clock = installFakeClock();
		try {
			const scope = nock(TEST_BASE_URL)
				.post(path)
				.reply(502, 'Bad Gateway')
				.post(path)
				.reply(200, { status: true, ai_enabled: true });
			expect(
				(await run({ resource: 'conversation', operation: 'enableAi', conversationId: UUID }))[0]
					.json,
			).toEqual({ id: UUID, ai_enabled: true });
			scope.done();
		} finally {
			clock.restore();
		}
	});

	it('a {status: false} answer with HTTP 200 is an error', async () => {
		nock(TEST_BASE_URL).post(path).reply(200, { status: false, error: 'Conversation not found' });
		await expect(
			run({ resource: 'conversation', operation: 'enableAi', conversationId: UUID }),
		).rejects.toThrow('Conversation not found');
	});

	it('refuses an empty ID before sending', async () => {
		await expect(
			run({ resource: 'conversation', operation: 'enableAi', conversationId: '' }),
		).rejects.toThrow('Conversation ID must be a UUID');
	});
});
