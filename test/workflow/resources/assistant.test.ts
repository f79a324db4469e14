/**
 * Assistant: every operation, run as real workflows (n8n-core) against the
 * simulator: the catalogues, Create in each mode, Update (modes, links, the
 * chat settings), the webhook switches (inbound, post-call, conversation
 * ended), Delete.
 */
import { operationRunner, ownRuns, RESOURCE_FILES } from '../helpers/operations';
import { byId, simulatorForTests } from '../helpers/workflows';

const { exercised, operations } = operationRunner();

describe('Assistant: every operation in a workflow against the simulator', () => {
	const sim = simulatorForTests();
	const assistants = operations(sim, 'assistant');
	const assistant = (id: number) => sim.state.assistants.find((a: any) => a.id === id);

	it('Assistant: catalogues (languages, voices, models, providers, assignable numbers), Get Many, Get Many Outbound', async () => {
		expect(await assistants('getLanguages', { returnAll: true })).toHaveLength(
			sim.state.languages.length,
		);
		const voices = await assistants('getVoices', {
			returnAll: true,
			filters: { mode: 'multimodal' },
		});
		const multimodal = sim.state.voices
			.filter((v: any) => v.modes.includes('multimodal'))
			.map((v: any) => v.id);
		expect(voices.map((v) => v.id).sort()).toEqual(multimodal.sort());
		expect(
			(await assistants('getModels', { modelType: 'dualplex', returnAll: true })).map(
				(m) => m.type,
			),
		).toEqual(['dualplex', 'dualplex']);
		expect(
			(await assistants('getSynthesizerProviders', { returnAll: true })).length,
		).toBeGreaterThan(0);
		expect(
			(await assistants('getTranscriberProviders', { returnAll: true })).length,
		).toBeGreaterThan(0);
		const assignable = await assistants('getAssignablePhoneNumbers', {
			assistantType: 'inbound',
			returnAll: true,
		});
		expect(assignable.length).toBeGreaterThan(0);
		expect(assignable.map((p) => p.id)).not.toContain(4); // caller-ID numbers cannot take inbound calls
		expect((await assistants('getOutbound', { returnAll: true })).map((a) => a.id)).toEqual([2]);
		expect((await assistants('getMany', { returnAll: true })).map((a) => a.id)).toEqual(
			sim.state.assistants.map((a: any) => a.id),
		);
		expect(await assistants('getMany', { returnAll: false, limit: 1 })).toHaveLength(1);
	});

	it('Assistant: Create in each mode, Update to another mode, set and clear links, webhook switches, Delete', async () => {
		const base = {
			type: 'outbound',
			languageId: 1,
			timezone: 'Europe/Berlin',
			initialMessage: 'Hi!',
			systemPrompt: 'Be kind.',
		};
		const created: Record<string, number> = {};
		for (const [mode, model, voiceId] of [
			['pipeline', { llmModelId: 2 }, 1],
			['multimodal', { multimodalModelId: 10 }, 10],
			['dualplex', { multimodalModelId: 20 }, 1],
		] as const) {
			const [answer] = await assistants('create', {
				...base,
				...model,
				mode,
				name: `Agent ${mode}`,
				voiceId,
			});
			expect(answer).toMatchObject({ name: `Agent ${mode}`, status: 'inactive', mode });
			created[mode] = answer.id;
		}
		const pipeline = byId(created.pipeline);
		const stored = () => sim.state.assistants.find((a: any) => a.id === created.pipeline);
		const [moved] = await assistants('update', {
			assistantId: pipeline,
			mode: 'multimodal',
			updateFields: { multimodal_model_id: 11, voice_id: 10 },
		});
		expect(moved.mode).toBe('multimodal');
		await assistants('update', {
			assistantId: pipeline,
			mode: 'keep',
			updateFields: { knowledgebase_id: 1, phone_number_id: 2 },
		});
		expect([stored().knowledgebase_id, stored().phone_number_id]).toEqual([1, 2]);
		await assistants('update', {
			assistantId: pipeline,
			mode: 'keep',
			clearFields: ['knowledgebase_id', 'phone_number_id'],
		});
		expect([stored().knowledgebase_id, stored().phone_number_id]).toEqual([null, null]);

		await assistants('enableInboundWebhook', {
			assistantId: byId(1),
			webhookUrl: 'https://example.com/in',
		});
		expect(sim.state.assistants[0].inbound_webhook_url).toBe('https://example.com/in');
		await assistants('disableInboundWebhook', { assistantId: byId(1) });
		expect(sim.state.assistants[0].inbound_webhook_url).toBeFalsy();
		await assistants('enablePostCallWebhook', {
			assistantId: byId(1),
			webhookUrl: 'https://example.com/calls',
			options: {},
		});
		expect(sim.state.assistants[0]).toMatchObject({
			is_webhook_active: true,
			webhook_url: 'https://example.com/calls',
		});
		expect((await assistants('get', { assistantId: byId(1), simplify: false }))[0]).toMatchObject({
			id: 1,
			webhook_url: 'https://example.com/calls',
		});
		await assistants('disablePostCallWebhook', { assistantId: byId(1) });
		expect(sim.state.assistants[0].is_webhook_active).toBeFalsy();

		expect(await assistants('delete', { assistantId: byId(created.dualplex) })).toEqual([
			expect.objectContaining({ deleted: true, id: created.dualplex }),
		]);
		expect(sim.state.assistants.map((a: any) => a.id)).not.toContain(created.dualplex);
	});

	it('Assistant: filler phrases, inactivity timeout, re-trigger and the chat webhook reach the service', async () => {
		await assistants('update', {
			assistantId: byId(1),
			mode: 'keep',
			updateFields: {
				filler_config: { positive: 'Great!\nWonderful.', neutral: 'One moment.' },
				conversation_inactivity_timeout: 90,
				conversation_ended_retrigger: true,
				conversation_ended_webhook_url: 'https://example.com/first',
			},
		});
		expect(assistant(1)).toMatchObject({
			filler_config: { positive: ['Great!', 'Wonderful.'], neutral: ['One moment.'] },
			conversation_inactivity_timeout: 90,
			conversation_ended_retrigger: true,
			conversation_ended_webhook_url: 'https://example.com/first',
		});
	});

	it('Assistant: Enable / Disable Conversation-Ended Webhook', async () => {
		const [enabled] = await assistants('enableConversationEndedWebhook', {
			assistantId: byId(2),
			webhookUrl: 'https://example.com/chat-ended',
		});
		expect(enabled.message).toBe('Conversation ended webhook enabled successfully');
		expect(assistant(2).conversation_ended_webhook_url).toBe('https://example.com/chat-ended');
		await assistants('disableConversationEndedWebhook', { assistantId: byId(2) });
		expect(assistant(2).conversation_ended_webhook_url).toBeNull();
		await expect(
			assistants('disableConversationEndedWebhook', { assistantId: byId(999) }),
		).rejects.toThrow('Assistant not found');
	});

	it('ran every operation of Assistant', () => {
		expect(ownRuns('assistant', exercised)).toEqual([...RESOURCE_FILES.assistant].sort());
	});
});
