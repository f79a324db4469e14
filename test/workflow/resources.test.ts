/**
 * Every resource and operation of the node, run as real workflows (n8n-core)
 * against the simulator, which validates each request the way the service
 * does. The last test checks that no operation of the node was left out.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CLASSIC_AREAS, allOperations } from './helpers/operations';
import { runWorkflow } from './helpers/runWorkflow';
import type { ActionWorkflowOptions, Simulator } from './helpers/workflows';
import { actionWorkflow, byId, control, ROWS, SERVICE, simCredentials, startSimulator } from './helpers/workflows';

/* eslint-disable @typescript-eslint/no-explicit-any */

const exercised = new Set<string>();

/** Runs one operation in Manual Trigger → (Rows →) Voice Chat Assistant; returns the output items. */
async function run(sim: Simulator, parameters: IDataObject, options: ActionWorkflowOptions = {}) {
	exercised.add(`${parameters.resource}:${parameters.operation}`);
	const result = await runWorkflow(actionWorkflow(parameters, options), { credentials: simCredentials(sim) });
	const error = result.errorOf(SERVICE) ?? result.error;
	if (error) throw Object.assign(new Error(error.message), error);
	return result.outputOf(SERVICE);
}

/** The same, JSON of the items only. */
async function op(sim: Simulator, parameters: IDataObject, options: ActionWorkflowOptions = {}): Promise<any[]> {
	return (await run(sim, parameters, options)).map((item) => item.json);
}

describe('every operation in a workflow against the simulator', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ docProcessingMs: 50 });
	});
	afterAll(async () => {
		await sim.close();
	});

	it('Account: Get Profile, Get API Keys', async () => {
		expect((await op(sim, { resource: 'account', operation: 'getProfile' }))[0].email).toBe(sim.state.user.email);
		expect(await op(sim, { resource: 'account', operation: 'getApiKeys' })).toHaveLength(sim.state.apiKeys.length);
	});

	it('Assistant: catalogues (languages, voices, models, providers, assignable numbers), Get Many, Get Many Outbound', async () => {
		expect(await op(sim, { resource: 'assistant', operation: 'getLanguages', returnAll: true })).toHaveLength(sim.state.languages.length);
		const voices = await op(sim, { resource: 'assistant', operation: 'getVoices', returnAll: true, filters: { mode: 'multimodal' } });
		const multimodal = sim.state.voices.filter((v: any) => v.modes.includes('multimodal')).map((v: any) => v.id);
		expect(voices.map((v) => v.id).sort()).toEqual(multimodal.sort());
		expect((await op(sim, { resource: 'assistant', operation: 'getModels', modelType: 'dualplex', returnAll: true })).map((m) => m.type)).toEqual([
			'dualplex',
			'dualplex',
		]);
		expect((await op(sim, { resource: 'assistant', operation: 'getSynthesizerProviders', returnAll: true })).length).toBeGreaterThan(0);
		expect((await op(sim, { resource: 'assistant', operation: 'getTranscriberProviders', returnAll: true })).length).toBeGreaterThan(0);
		const assignable = await op(sim, { resource: 'assistant', operation: 'getAssignablePhoneNumbers', assistantType: 'inbound', returnAll: true });
		expect(assignable.length).toBeGreaterThan(0);
		expect(assignable.map((p) => p.id)).not.toContain(4); // caller-ID numbers cannot take inbound calls
		expect((await op(sim, { resource: 'assistant', operation: 'getOutbound', returnAll: true })).map((a) => a.id)).toEqual([2]);
		expect((await op(sim, { resource: 'assistant', operation: 'getMany', returnAll: true })).map((a) => a.id)).toEqual(
			sim.state.assistants.map((a: any) => a.id),
		);
		expect(await op(sim, { resource: 'assistant', operation: 'getMany', returnAll: false, limit: 1 })).toHaveLength(1);
	});

	it('Assistant: Create in each mode, Update to another mode, set and clear links, webhook switches, Delete', async () => {
		const base = { resource: 'assistant', operation: 'create', type: 'outbound', languageId: 1, timezone: 'Europe/Berlin', initialMessage: 'Hi!', systemPrompt: 'Be kind.' };
		const created: Record<string, number> = {};
		for (const [mode, model, voiceId] of [
			['pipeline', { llmModelId: 2 }, 1],
			['multimodal', { multimodalModelId: 10 }, 10],
			['dualplex', { multimodalModelId: 20 }, 1],
		] as const) {
			const [answer] = await op(sim, { ...base, ...model, mode, name: `Agent ${mode}`, voiceId });
			expect(answer).toMatchObject({ name: `Agent ${mode}`, status: 'inactive', mode });
			created[mode] = answer.id;
		}
		const pipeline = byId(created.pipeline);
		const stored = () => sim.state.assistants.find((a: any) => a.id === created.pipeline);
		const [moved] = await op(sim, { resource: 'assistant', operation: 'update', assistantId: pipeline, mode: 'multimodal', updateFields: { multimodal_model_id: 11, voice_id: 10 } });
		expect(moved.mode).toBe('multimodal');
		await op(sim, { resource: 'assistant', operation: 'update', assistantId: pipeline, mode: 'keep', updateFields: { knowledgebase_id: 1, phone_number_id: 2 } });
		expect([stored().knowledgebase_id, stored().phone_number_id]).toEqual([1, 2]);
		await op(sim, { resource: 'assistant', operation: 'update', assistantId: pipeline, mode: 'keep', clearFields: ['knowledgebase_id', 'phone_number_id'] });
		expect([stored().knowledgebase_id, stored().phone_number_id]).toEqual([null, null]);

		await op(sim, { resource: 'assistant', operation: 'enableInboundWebhook', assistantId: byId(1), webhookUrl: 'https://example.com/in' });
		expect(sim.state.assistants[0].inbound_webhook_url).toBe('https://example.com/in');
		await op(sim, { resource: 'assistant', operation: 'disableInboundWebhook', assistantId: byId(1) });
		expect(sim.state.assistants[0].inbound_webhook_url).toBeFalsy();
		await op(sim, { resource: 'assistant', operation: 'enablePostCallWebhook', assistantId: byId(1), webhookUrl: 'https://example.com/calls', options: {} });
		expect(sim.state.assistants[0]).toMatchObject({ is_webhook_active: true, webhook_url: 'https://example.com/calls' });
		expect((await op(sim, { resource: 'assistant', operation: 'get', assistantId: byId(1), simplify: false }))[0]).toMatchObject({ id: 1, webhook_url: 'https://example.com/calls' });
		await op(sim, { resource: 'assistant', operation: 'disablePostCallWebhook', assistantId: byId(1) });
		expect(sim.state.assistants[0].is_webhook_active).toBeFalsy();

		expect(await op(sim, { resource: 'assistant', operation: 'delete', assistantId: byId(created.dualplex) })).toEqual([
			expect.objectContaining({ deleted: true, id: created.dualplex }),
		]);
		expect(sim.state.assistants.map((a: any) => a.id)).not.toContain(created.dualplex);
	});

	it('Knowledgebase and Document: lifecycle, a website document processed', async () => {
		const [kb] = await op(sim, { resource: 'knowledgebase', operation: 'create', name: 'Workflow KB', description: 'made by a test' });
		const kbRef = byId(kb.id);
		expect((await op(sim, { resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }))[0].name).toBe('Workflow KB');
		await op(sim, { resource: 'knowledgebase', operation: 'update', knowledgebaseId: kbRef, updateFields: { name: 'Renamed KB' } });
		expect((await op(sim, { resource: 'knowledgebase', operation: 'getMany', returnAll: true })).map((k) => k.name)).toContain('Renamed KB');

		const [doc] = await op(sim, {
			resource: 'document', operation: 'create', knowledgebaseId: kbRef, name: 'Site', type: 'website', websiteSource: 'links',
			links: { link: [{ link: 'https://example.com/a' }, { link: 'https://example.com/b' }] },
			options: { waitUntilProcessed: true, timeoutSeconds: 30 },
		});
		expect(doc.status).toBe('active');
		const docRef = byId(doc.id);
		expect((await op(sim, { resource: 'document', operation: 'get', knowledgebaseId: kbRef, documentId: docRef }))[0].id).toBe(doc.id);
		expect((await op(sim, { resource: 'document', operation: 'getMany', knowledgebaseId: kbRef, returnAll: true })).map((d) => d.id)).toEqual([doc.id]);
		await op(sim, { resource: 'document', operation: 'update', knowledgebaseId: kbRef, documentId: docRef, updateFields: { description: 'updated' } });
		expect(sim.state.documents.find((d: any) => d.id === doc.id).description).toBe('updated');
		await op(sim, { resource: 'document', operation: 'delete', knowledgebaseId: kbRef, documentId: docRef });
		expect((await op(sim, { resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef }))[0].status).toBe('empty');

		await op(sim, { resource: 'knowledgebase', operation: 'delete', knowledgebaseId: kbRef });
		await expect(op(sim, { resource: 'knowledgebase', operation: 'get', knowledgebaseId: kbRef })).rejects.toThrow('Knowledgebase not found.');
	});

	it('Document: Create from binary files stored on disk by n8n (filesystem mode), uploaded byte for byte', async () => {
		const text = 'Opening hours: Monday to Friday, 9 to 17.\n'.repeat(50);
		const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4096, 7), Buffer.from('\n%%EOF\n')]);
		const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
		const before = sim.log.length;
		const items = await run(
			sim,
			{ resource: 'document', operation: 'create', knowledgebaseId: byId(1), name: '={{ $json.title }}', type: 'auto', binaryPropertyName: 'data', options: { waitUntilProcessed: true, timeoutSeconds: 30 } },
			{
				rows: [{ title: 'Opening hours' }, { title: 'Price list' }],
				files: [
					{ data: { text, fileName: 'hours.txt', mimeType: 'text/plain' } },
					{ data: { base64: pdf.toString('base64'), fileName: 'prices.pdf', mimeType: 'application/pdf' } },
				],
			},
		);
		expect(items.map((i) => [i.json.name, i.json.type, i.json.status, i.pairedItem])).toEqual([
			['Opening hours', 'txt', 'active', { item: 0 }],
			['Price list', 'pdf', 'active', { item: 1 }],
		]);
		const uploads = sim.log.slice(before).filter((e) => e.method === 'POST' && e.path === '/api/user/knowledgebases/1/documents');
		expect(uploads.map((e: any) => e.body.files)).toEqual([
			[{ field: 'file', filename: 'hours.txt', contentType: 'text/plain', size: Buffer.byteLength(text), sha256: sha(text) }],
			[{ field: 'file', filename: 'prices.pdf', contentType: 'application/pdf', size: pdf.length, sha256: sha(pdf) }],
		]);
	});

	it('Document: the Rows node keeps the files on disk (binary id, no base64 in the item)', async () => {
		const result = await runWorkflow(
			actionWorkflow(
				{ resource: 'document', operation: 'create', knowledgebaseId: byId(1), name: 'Notes', type: 'txt', binaryPropertyName: 'file' },
				{ rows: [{}], files: [{ file: { text: 'note', fileName: 'notes.txt', mimeType: 'text/plain' } }] },
			),
			{ credentials: simCredentials(sim) },
		);
		exercised.add('document:create');
		expect(result.error).toBeUndefined();
		const [row] = result.outputOf(ROWS);
		expect(row.binary?.file).toMatchObject({ fileName: 'notes.txt', mimeType: 'text/plain', data: 'filesystem-v2', bytes: 4 });
		expect(row.binary?.file.id).toMatch(/^filesystem-v2:/);
	});

	it('Mid Call Tool: Create, Get, Get Many, Update, Delete', async () => {
		const [tool] = await op(sim, {
			resource: 'tool', operation: 'create', name: 'check_stock', description: 'Checks the stock', endpoint: 'https://example.com/stock', method: 'GET',
			additionalFields: { timeout: 5, schema: { values: [{ name: 'sku', type: 'string', description: 'Article number' }] } },
		});
		const ref = byId(tool.id);
		expect((await op(sim, { resource: 'tool', operation: 'get', toolId: ref }))[0].name).toBe('check_stock');
		expect((await op(sim, { resource: 'tool', operation: 'getMany', returnAll: true })).map((t) => t.id)).toContain(tool.id);
		expect((await op(sim, { resource: 'tool', operation: 'update', toolId: ref, updateFields: { timeout: 20 } }))[0].timeout).toBe(20);
		await op(sim, { resource: 'tool', operation: 'delete', toolId: ref });
		await expect(op(sim, { resource: 'tool', operation: 'get', toolId: ref })).rejects.toThrow('Tool not found');
	});

	it('Campaign: Get Many; Phone Number: Get Many, Get Many SMS-Capable, Search Available', async () => {
		expect((await op(sim, { resource: 'campaign', operation: 'getMany', returnAll: true })).map((c) => c.id)).toEqual([1, 2]);
		expect((await op(sim, { resource: 'campaign', operation: 'get', campaignId: byId(2) }))[0]).toMatchObject({ id: 2, name: 'Winter Reactivation' });
		expect(await op(sim, { resource: 'phoneNumber', operation: 'getMany', returnAll: true })).toHaveLength(sim.state.phoneNumbers.length);
		const sms = await op(sim, { resource: 'phoneNumber', operation: 'getManySmsCapable', returnAll: true });
		expect(sms.length).toBeGreaterThan(0);
		expect(sms.every((p) => p.sms_capable)).toBe(true);
		const found = await op(sim, { resource: 'phoneNumber', operation: 'search', country: 'GB', digits: '20', returnAll: false, limit: 3 });
		expect(found.length).toBeGreaterThan(0);
		expect(found.length).toBeLessThanOrEqual(3);
	});

	it('Conversation: Create, Send Message, Get, Get Many', async () => {
		const assistant = sim.state.assistants.find((a: any) => a.id === 1);
		const [conversation] = await op(sim, {
			resource: 'conversation', operation: 'create', assistantUuid: byId(assistant.uuid), type: 'test',
			variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
		});
		const id = conversation.conversation_id as string;
		const [reply] = await op(sim, { resource: 'conversation', operation: 'sendMessage', conversationId: id, message: 'Hello?' });
		expect(reply).toBeDefined();
		const [history] = await op(sim, { resource: 'conversation', operation: 'get', conversationId: id, simplify: false });
		const [simple] = await op(sim, { resource: 'conversation', operation: 'get', conversationId: id });
		expect(simple).toMatchObject({ message_count: 3, last_message: expect.any(String), transcript: expect.stringContaining('user: Hello?') });
		expect((history.history as any[]).map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
		expect((await op(sim, { resource: 'conversation', operation: 'getMany', returnAll: true, filters: { type: 'test' } })).map((c) => c.id)).toContain(id);
	});

	it('Call: Make, Get, Get Many with filters and a limit', async () => {
		const [made] = await op(sim, { resource: 'call', operation: 'make', assistantId: byId(2), phoneNumber: '+4915112345678' });
		expect(made.status).toBe('initiated');
		expect((await op(sim, { resource: 'call', operation: 'get', callId: String(made.call_id) }))[0].id).toBe(made.call_id);
		const inbound = await op(sim, { resource: 'call', operation: 'getMany', returnAll: true, filters: { type: 'inbound' } });
		expect(inbound.length).toBeGreaterThan(0);
		expect(inbound.every((c) => c.type === 'inbound')).toBe(true);
		expect(await op(sim, { resource: 'call', operation: 'getMany', returnAll: false, limit: 2, filters: {} })).toHaveLength(2);
	});

	it('every operation of every resource was run above or by its area file under classic/', () => {
		const all = allOperations();
		const classic = new Set(Object.values(CLASSIC_AREAS).flat());
		expect(all.length).toBeGreaterThanOrEqual(80);
		expect(all.filter((name) => !exercised.has(name) && !classic.has(name))).toEqual([]);
		// every operation an area file promises to run is one the node offers
		expect([...classic].filter((name) => !all.includes(name))).toEqual([]);
	});
});

describe('Call: Get Many, Return All over 250 calls', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(async () => {
		await sim.close();
	});

	it('returns all 250 calls, newest first, in exactly 3 requests of 100', async () => {
		sim.reset();
		const seeded = sim.state.calls.length;
		await control(sim, 'calls/seed', { count: 250 - seeded });
		expect(sim.state.calls).toHaveLength(250);
		const before = sim.log.length;

		const items: INodeExecutionData[] = await run(sim, { resource: 'call', operation: 'getMany', returnAll: true, filters: {} });

		expect(items).toHaveLength(250);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(250);
		// newest first, as the service lists them
		const times = items.map((i) => Date.parse(`${String(i.json.created_at).replace(' ', 'T')}Z`));
		expect(times.every((t) => Number.isFinite(t))).toBe(true);
		expect(times).toEqual([...times].sort((a, b) => b - a));
		expect(items.map((i) => i.json.id).sort()).toEqual(sim.state.calls.map((c: any) => c.id).sort());
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		const requests = sim.log.slice(before).filter((e) => e.path === '/api/user/calls');
		expect(requests.map((e) => [e.method, e.query.page, e.query.per_page, e.status])).toEqual([
			['GET', '1', '100', 200],
			['GET', '2', '100', 200],
			['GET', '3', '100', 200],
		]);
		expect(sim.log.slice(before)).toHaveLength(3);
	});
});
