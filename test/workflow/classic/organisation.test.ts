/**
 * Folders, labels and the assistant's chat settings, run as real workflows
 * against the simulator.
 */
import type { IDataObject } from 'n8n-workflow';

import { CLASSIC_AREAS } from '../helpers/operations';
import { runWorkflow } from '../helpers/runWorkflow';
import type { Simulator } from '../helpers/workflows';
import { actionWorkflow, byId, SERVICE, simCredentials, startSimulator } from '../helpers/workflows';

/* eslint-disable @typescript-eslint/no-explicit-any */

const exercised = new Set<string>();

async function op(sim: Simulator, parameters: IDataObject): Promise<any[]> {
	exercised.add(`${parameters.resource}:${parameters.operation}`);
	const result = await runWorkflow(actionWorkflow(parameters), { credentials: simCredentials(sim) });
	const error = result.errorOf(SERVICE) ?? result.error;
	if (error) throw Object.assign(new Error(error.message), error);
	return result.outputOf(SERVICE).map((item) => item.json);
}

describe('organisation: folders, labels, chat settings of assistants', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(async () => {
		await sim.close();
	});
	const assistant = (id: number) => sim.state.assistants.find((a: any) => a.id === id);

	it.each(['folder', 'label'])('%s: Create, Get Many, Update, file an assistant, Delete (the assistant is kept)', async (resource) => {
		const [created] = await op(sim, { resource, operation: 'create', name: `Team ${resource}`, options: { color: 'teal' } });
		expect(created).toMatchObject({ name: `Team ${resource}`, color: 'teal', assistants_count: 0 });
		await expect(op(sim, { resource, operation: 'create', name: `team ${resource}`, options: {} })).rejects.toThrow('The name has already been taken.');

		const [renamed] = await op(sim, { resource, operation: 'update', [`${resource}Id`]: byId(created.id), updateFields: { name: `Renamed ${resource}` } });
		expect(renamed).toMatchObject({ id: created.id, name: `Renamed ${resource}`, color: 'teal' });

		const field = resource === 'folder' ? { folder_id: created.id } : { label_ids: [1, created.id] };
		await op(sim, { resource: 'assistant', operation: 'update', assistantId: byId(2), mode: 'keep', updateFields: field });
		const listed = await op(sim, { resource, operation: 'getMany', returnAll: true });
		expect(listed.find((r) => r.id === created.id)).toMatchObject({ assistants_count: 1 });
		expect(await op(sim, { resource, operation: 'getMany', returnAll: false, limit: 1 })).toHaveLength(1);

		expect(await op(sim, { resource, operation: 'delete', [`${resource}Id`]: byId(created.id) })).toEqual([
			expect.objectContaining({ deleted: true, id: created.id }),
		]);
		expect(assistant(2)).toBeDefined();
		if (resource === 'folder') expect(assistant(2).folder_id).toBeNull();
		else expect(assistant(2).label_ids).toEqual([1]);
		await expect(op(sim, { resource, operation: 'delete', [`${resource}Id`]: byId(created.id) })).rejects.toThrow(
			`${resource === 'folder' ? 'Folder' : 'Label'} not found`,
		);
	});

	it('Assistant: filler phrases, inactivity timeout, re-trigger and the chat webhook reach the service', async () => {
		await op(sim, {
			resource: 'assistant',
			operation: 'update',
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
		const [enabled] = await op(sim, {
			resource: 'assistant',
			operation: 'enableConversationEndedWebhook',
			assistantId: byId(2),
			webhookUrl: 'https://example.com/chat-ended',
		});
		expect(enabled.message).toBe('Conversation ended webhook enabled successfully');
		expect(assistant(2).conversation_ended_webhook_url).toBe('https://example.com/chat-ended');
		await op(sim, { resource: 'assistant', operation: 'disableConversationEndedWebhook', assistantId: byId(2) });
		expect(assistant(2).conversation_ended_webhook_url).toBeNull();
		await expect(op(sim, { resource: 'assistant', operation: 'disableConversationEndedWebhook', assistantId: byId(999) })).rejects.toThrow('Assistant not found');
	});

	it('ran every operation of the area', () => {
		expect([...exercised].filter((name) => CLASSIC_AREAS.organisation.includes(name)).sort()).toEqual([...CLASSIC_AREAS.organisation].sort());
	});
});
