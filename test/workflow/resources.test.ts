/**
 * Every operation of the node, run as a real workflow (n8n-core) against the
 * simulator, which validates each request the way SPEC.md says the service does.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { runWorkflow } from './helpers/runWorkflow';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSimulator } = require('../simulator/server');

const KEY = 'sim-test-key-0123456789';
const rl = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

describe('every operation in a workflow against the simulator', () => {
	let sim: any;
	beforeAll(async () => {
		sim = await startSimulator({ port: 0, rateLimit: false, docProcessingMs: 50 });
	});
	afterAll(async () => {
		await sim.close();
	});

	async function op(parameters: Record<string, unknown>, items?: INodeExecutionData[], options: Record<string, unknown> = {}) {
		const nodes: any[] = [{ id: '1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }];
		const connections: any = {};
		let previous = 'Start';
		if (items) {
			nodes.push({ id: '2', name: 'Rows', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify(items.map((i) => i.json)) } });
			connections.Start = { main: [[{ node: 'Rows', type: 'main', index: 0 }]] };
			previous = 'Rows';
		}
		nodes.push({
			id: '3', name: 'Service', type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistant', typeVersion: 1, position: [400, 0],
			parameters, credentials: { voiceChatAssistantApi: { id: 'cred', name: 'sim' } }, ...options,
		});
		connections[previous] = { main: [[{ node: 'Service', type: 'main', index: 0 }]] };
		const result = await runWorkflow({ nodes, connections }, { apiKey: KEY, baseUrl: sim.url, requestsPerMinute: 100_000, burst: 100_000 });
		const error = result.errorOf('Service');
		if (error) throw error;
		return result.outputOf('Service').map((i) => i.json);
	}

	it('Account: profile and keys', async () => {
		expect((await op({ resource: 'account', operation: 'getProfile' }))[0].email).toBe(sim.state.user.email);
		expect(await op({ resource: 'account', operation: 'getApiKeys' })).toHaveLength(sim.state.apiKeys.length);
	});

	it('Assistant: catalogues, create in each mode, update to another mode, set and clear knowledgebase and phone number, webhooks, delete', async () => {
		expect((await op({ resource: 'assistant', operation: 'getLanguages', returnAll: true })).length).toBe(sim.state.languages.length);
		const voices = await op({ resource: 'assistant', operation: 'getVoices', returnAll: true, filters: { mode: 'multimodal' } });
		expect(voices.length).toBeGreaterThan(0);
		const multimodalIds = sim.state.voices.filter((v: any) => v.modes.includes('multimodal')).map((v: any) => v.id);
		expect(voices.map((v: any) => v.id).sort()).toEqual(multimodalIds.sort());
		expect((await op({ resource: 'assistant', operation: 'getModels', modelType: 'dualplex', returnAll: true })).map((m: any) => m.type)).toEqual(['dualplex', 'dualplex']);
		expect((await op({ resource: 'assistant', operation: 'getSynthesizerProviders', returnAll: true })).length).toBeGreaterThan(0);
		expect((await op({ resource: 'assistant', operation: 'getTranscriberProviders', returnAll: true })).length).toBeGreaterThan(0);
		expect((await op({ resource: 'assistant', operation: 'getAssignablePhoneNumbers', assistantType: 'inbound', returnAll: true })).map((p: any) => p.id)).not.toContain(4);
		expect((await op({ resource: 'assistant', operation: 'getOutbound', returnAll: true })).map((a: any) => a.id)).toEqual([2]);

		const base = { resource: 'assistant', operation: 'create', type: 'outbound', languageId: 1, timezone: 'Europe/Berlin', initialMessage: 'Hi!', systemPrompt: 'Be kind.' };
		const created: Record<string, number> = {};
		for (const [mode, model, voice] of [
			['pipeline', { llmModelId: 2 }, 1],
			['multimodal', { multimodalModelId: 10 }, 10],
			['dualplex', { multimodalModelId: 20 }, 1],
		] as const) {
			const [answer] = await op({ ...base, ...model, mode, name: `Agent ${mode}`, voiceId: voice });
			expect(answer).toMatchObject({ name: `Agent ${mode}`, status: 'inactive', mode });
			created[mode] = answer.id as number;
		}
		const pipeline = rl(created.pipeline);
		const [moved] = await op({ resource: 'assistant', operation: 'update', assistantId: pipeline, mode: 'multimodal', updateFields: { multimodal_model_id: 11, voice_id: 10 } });
		expect(moved.mode).toBe('multimodal');
		await op({ resource: 'assistant', operation: 'update', assistantId: pipeline, mode: 'keep', updateFields: { knowledgebase_id: 1, phone_number_id: 2 } });
		let stored = sim.state.assistants.find((a: any) => a.id === created.pipeline);
		expect([stored.knowledgebase_id, stored.phone_number_id]).toEqual([1, 2]);
		await op({ resource: 'assistant', operation: 'update', assistantId: pipeline, mode: 'keep', clearFields: ['knowledgebase_id', 'phone_number_id'] });
		stored = sim.state.assistants.find((a: any) => a.id === created.pipeline);
		expect([stored.knowledgebase_id, stored.phone_number_id]).toEqual([null, null]);

		await op({ resource: 'assistant', operation: 'enableInboundWebhook', assistantId: rl(1), webhookUrl: 'https://example.com/in' });
		expect(sim.state.assistants[0].inbound_webhook_url).toBe('https://example.com/in');
		await op({ resource: 'assistant', operation: 'disableInboundWebhook', assistantId: rl(1) });
		expect(sim.state.assistants[0].inbound_webhook_url).toBeFalsy();
		await op({ resource: 'assistant', operation: 'disablePostCallWebhook', assistantId: rl(1) });
		expect(await op({ resource: 'assistant', operation: 'delete', assistantId: rl(created.dualplex) })).toEqual([expect.objectContaining({ deleted: true, id: created.dualplex })]);
		const all = await op({ resource: 'assistant', operation: 'getMany', returnAll: true });
		expect(all.map((a: any) => a.id)).not.toContain(created.dualplex);
	});

	it('Knowledgebase and Document: full lifecycle, website document processed', async () => {
		const [kb] = await op({ resource: 'knowledgebase', operation: 'create', name: 'Workflow KB', description: 'made by a test' });
		const kbRef = rl(kb.id as number);
		expect((await op({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }))[0].name).toBe('Workflow KB');
		await op({ resource: 'knowledgebase', operation: 'update', knowledgebaseId: kbRef, updateFields: { name: 'Renamed KB' } });
		expect((await op({ resource: 'knowledgebase', operation: 'getMany', returnAll: true })).map((k: any) => k.name)).toContain('Renamed KB');
		const [doc] = await op({
			resource: 'document', operation: 'create', knowledgebaseId: kbRef, name: 'Site', type: 'website', websiteSource: 'links',
			links: { link: [{ link: 'https://example.com/a' }] }, options: { waitUntilProcessed: true, timeoutSeconds: 30 },
		});
		expect(doc.status).toBe('active');
		const docRef = rl(doc.id as number);
		expect((await op({ resource: 'document', operation: 'get', knowledgebaseId: kbRef, documentId: docRef }))[0].id).toBe(doc.id);
		expect(await op({ resource: 'document', operation: 'getMany', knowledgebaseId: kbRef, returnAll: true })).toHaveLength(1);
		await op({ resource: 'document', operation: 'update', knowledgebaseId: kbRef, documentId: docRef, updateFields: { description: 'updated' } });
		await op({ resource: 'document', operation: 'delete', knowledgebaseId: kbRef, documentId: docRef });
		expect((await op({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }))[0].status).toBe('empty');
		await op({ resource: 'knowledgebase', operation: 'delete', knowledgebaseId: kbRef });
		const after = await op({ resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }).catch((e) => e.message);
		expect(after).toBe('Knowledgebase not found.');
	});

	it('Mid Call Tool: create, get, get many, update, delete', async () => {
		const [tool] = await op({
			resource: 'tool', operation: 'create', name: 'check_stock', description: 'Checks the stock', endpoint: 'https://example.com/stock', method: 'GET',
			additionalFields: { timeout: 5, schema: { values: [{ name: 'sku', type: 'string', description: 'Article number' }] } },
		});
		const ref = rl(tool.id as number);
		expect((await op({ resource: 'tool', operation: 'get', toolId: ref }))[0].name).toBe('check_stock');
		expect((await op({ resource: 'tool', operation: 'getMany', returnAll: true })).map((t: any) => t.id)).toContain(tool.id);
		expect((await op({ resource: 'tool', operation: 'update', toolId: ref, updateFields: { timeout: 20 } }))[0].timeout).toBe(20);
		await op({ resource: 'tool', operation: 'delete', toolId: ref });
		const after = await op({ resource: 'tool', operation: 'get', toolId: ref }).catch((e) => e.message);
		expect(after).toBe('Tool not found');
	});

	it('Lead, Campaign and Phone Number', async () => {
		expect((await op({ resource: 'campaign', operation: 'getMany', returnAll: true })).map((c: any) => c.id)).toEqual([1, 2]);
		expect(await op({ resource: 'phoneNumber', operation: 'getMany', returnAll: true })).toHaveLength(sim.state.phoneNumbers.length);
		const sms = await op({ resource: 'phoneNumber', operation: 'getManySmsCapable', returnAll: true });
		expect(sms.every((p: any) => p.sms_capable)).toBe(true);
		expect((await op({ resource: 'phoneNumber', operation: 'search', country: 'GB', digits: '20', returnAll: false, limit: 3 })).length).toBeGreaterThan(0);

		const phones = ['+4915100000101', '+4915100000102', 'not-a-phone', '+4915100000104', '+4915100000105'];
		const results = await op(
			{ resource: 'lead', operation: 'create', campaignId: rl(1), phoneNumber: '={{ $json.phone }}', variablesJson: '={{ { customer_name: $json.name } }}' },
			phones.map((phone, n) => ({ json: { phone, name: `Lead ${n}` } })),
			{ onError: 'continueRegularOutput' },
		);
		expect(results.map((r: any) => (r.error ? 'error' : r.phone_number))).toEqual(['+4915100000101', '+4915100000102', 'error', '+4915100000104', '+4915100000105']);
		expect(results[0].variables).toEqual({ customer_name: 'Lead 0' });
		const again = await op(
			{ resource: 'lead', operation: 'create', campaignId: rl(1), phoneNumber: '+4915100000101', options: { onDuplicate: 'skip' } },
			[{ json: { row: 1 } }],
		);
		expect(again).toEqual([expect.objectContaining({ row: 1, skipped: true })]);
	});

	it('Conversation: create, send message, get, get many', async () => {
		const assistant = sim.state.assistants.find((a: any) => a.id === 1);
		const [conversation] = await op({ resource: 'conversation', operation: 'create', assistantUuid: rl(assistant.uuid), type: 'test', variables: { values: [{ key: 'customer_name', value: 'Ada' }] } });
		const id = conversation.conversation_id as string;
		await op({ resource: 'conversation', operation: 'sendMessage', conversationId: id, message: 'Hello?' });
		const [history] = await op({ resource: 'conversation', operation: 'get', conversationId: id });
		expect((history.history as any[]).map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
		expect((await op({ resource: 'conversation', operation: 'getMany', returnAll: true, filters: { type: 'test' } })).map((c: any) => c.id)).toContain(id);
	});

	it('Call: make, get, and Return All over 250 calls in exactly 3 requests', async () => {
		const [made] = await op({ resource: 'call', operation: 'make', assistantId: rl(2), phoneNumber: '+4915112345678' });
		expect(made.status).toBe('initiated');
		expect((await op({ resource: 'call', operation: 'get', callId: String(made.call_id) }))[0].id).toBe(made.call_id);
		const existing = sim.state.calls.length;
		await fetch(`${sim.url}/__sim/calls/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 250 - existing }) });
		const before = sim.log.length;
		const calls = await op({ resource: 'call', operation: 'getMany', returnAll: true, filters: {} });
		expect(calls).toHaveLength(250);
		expect(sim.log.slice(before).filter((e: any) => e.path === '/api/user/calls')).toHaveLength(3);
	});
});
