/**
 * Conversation: every operation, run as real workflows (n8n-core) against the
 * simulator: test chats (Create, Send Message, Get, Get Many), AI replies and
 * the AI takeover (Disable AI / Enable AI).
 */
import type { IDataObject } from 'n8n-workflow';

import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { byId, simulatorForTests } from '../helpers/workflows';

const { exercised, operations } = operationRunner();

const round = (n: number) => Math.round(n * 10000) / 10000;

describe('Conversation: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests({}, { resetEach: true });
	const conversations = operations(sim, 'conversation');
	const balance = () => sim.state.user.total_balance as number;

	it('Conversation: Create, Send Message, Get, Get Many', async () => {
		const assistant = sim.state.assistants.find((a: any) => a.id === 1);
		const [conversation] = await conversations('create', {
			assistantUuid: byId(assistant.uuid),
			type: 'test',
			variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
		});
		const id = conversation.conversation_id as string;
		const [reply] = await conversations('sendMessage', { conversationId: id, message: 'Hello?' });
		expect(reply).toBeDefined();
		const [history] = await conversations('get', { conversationId: id, simplify: false });
		const [simple] = await conversations('get', { conversationId: id });
		expect(simple).toMatchObject({
			message_count: 3,
			last_message: expect.any(String),
			transcript: expect.stringContaining('user: Hello?'),
		});
		expect((history.history as any[]).map((m) => m.role)).toEqual([
			'assistant',
			'user',
			'assistant',
		]);
		expect(
			(await conversations('getMany', { returnAll: true, filters: { type: 'test' } })).map(
				(c) => c.id,
			),
		).toContain(id);
	});

	it('Conversation: Generate AI Reply keeps one conversation per customer; Disable AI / Enable AI switch the answers', async () => {
		const before = balance();
		const ask = (message: string, extra: IDataObject = {}) =>
			conversations('generateAiReply', {
				assistantId: byId(1),
				customerIdentifier: 'shop-customer-7',
				message,
				...extra,
			});
		const [first] = await ask('Where is my order?', {
			variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
		});
		expect(first).toMatchObject({ customer_identifier: 'shop-customer-7', ai_disabled: false });
		expect(first.reply).toContain('Ada');
		const [second] = await ask('Thanks!');
		expect(second.conversation_id).toBe(first.conversation_id);
		const stored = () => sim.state.conversations.find((c: any) => c.id === first.conversation_id);
		expect(stored()).toMatchObject({
			type: 'api',
			external_identifier: 'shop-customer-7',
			variables: { customer_name: 'Ada' },
		});
		expect(stored().messages).toHaveLength(4);
		expect(round(before - balance())).toBe(0.02);
		expect(sim.log.filter((e) => e.path === '/api/user/ai/generate-reply')).toHaveLength(2);

		const [off] = await conversations('disableAi', { conversationId: first.conversation_id });
		expect(off).toEqual({ id: first.conversation_id, ai_enabled: false });
		expect(stored().ai_enabled).toBe(false);
		const [unanswered] = await ask('Hello? Anybody there?');
		expect(unanswered).toMatchObject({ ai_disabled: true, reply: null });
		expect(stored().messages.at(-1)).toEqual({ role: 'user', content: 'Hello? Anybody there?' });

		const [on] = await conversations('enableAi', { conversationId: first.conversation_id });
		expect(on).toEqual({ id: first.conversation_id, ai_enabled: true });
		expect(stored().ai_enabled).toBe(true);
		expect((await ask('Back again'))[0].ai_disabled).toBe(false);

		await expect(
			conversations('disableAi', { conversationId: '0b6f3c1e-8a4d-4f5e-9c2b-1d2e3f4a5b6c' }),
		).rejects.toThrow('Conversation not found');
		await expect(conversations('enableAi', { conversationId: 'not-a-uuid' })).rejects.toThrow(
			'Conversation ID must be a UUID',
		);
		await expect(ask('Hi', { assistantId: byId(42) })).rejects.toThrow(
			'Assistant not found or does not belong to you',
		);
	});

	it('ran every operation of Conversation', () => {
		expect(ownRuns('conversation', exercised)).toEqual([...RESOURCE_FILES.conversation].sort());
	});
});
