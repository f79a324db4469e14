/**
 * The packed package in a real n8n: one workflow that touches every resource, a create
 * whose answer is lost beside a same-name object of this morning,
 * and a document upload read from disk by n8n's Read/Write Files node.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

const {
	outputOf,
	UNTHROTTLED,
	startSimulatorAndHome,
	packageChain: chain,
	builtInNode,
	rl,
	simPost,
	SIM_CREDENTIAL_REF,
} = require('../harness/n8n');
const { copyExampleFiles, tryItCopy } = require('../../scripts/try-it-examples');
const SIM_CREDENTIAL = { id: 'simulatorCred001', name: 'Voice Chat Assistant (simulator)' };

describe('real n8n: every resource, and a document uploaded from disk', () => {
	let sim: any;
	let home: any;
	let server: any;
	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome({
			simulator: { docProcessingMs: 300 },
			credentialData: UNTHROTTLED,
		}));
		home.env.N8N_RESTRICT_FILE_ACCESS_TO = home.folder;
		// one n8n for the file: each workflow is saved and run in it as from the editor
		server = await home.start();
	}, 180_000);
	afterAll(async () => {
		await sim?.close();
		await home?.cleanup();
	});

	it('a workflow touching every resource runs and returns the simulator data', async () => {
		const uuid = sim.state.assistants[0].uuid;
		const steps: Array<[string, Record<string, unknown>]> = [
			['Profile', { resource: 'account', operation: 'getProfile' }],
			['Assistants', { resource: 'assistant', operation: 'getMany', returnAll: true }],
			['Knowledgebases', { resource: 'knowledgebase', operation: 'getMany', returnAll: true }],
			[
				'Documents',
				{ resource: 'document', operation: 'getMany', knowledgebaseId: rl(1), returnAll: true },
			],
			['Tools', { resource: 'tool', operation: 'getMany', returnAll: true }],
			[
				'Lead',
				{
					resource: 'lead',
					operation: 'create',
					campaignId: rl(1),
					phoneNumber: '+4915100000777',
					variables: { values: [{ key: 'customer_name', value: 'Ada' }] },
				},
			],
			['Campaigns', { resource: 'campaign', operation: 'getMany', returnAll: true }],
			['Numbers', { resource: 'phoneNumber', operation: 'getMany', returnAll: true }],
			[
				'Chat',
				{ resource: 'conversation', operation: 'create', assistantUuid: rl(uuid), type: 'test' },
			],
			[
				'Calls',
				{ resource: 'call', operation: 'getMany', returnAll: false, limit: 5, filters: {} },
			],
		];
		const id = await home.createWorkflow(server, chain('e2eResourcesWf01', steps));
		const result = await home.run(server, id);
		expect(result.why).toBeUndefined();
		const out = (name: string) => outputOf(result.run, name).items.map((i: any) => i.json);
		expect(out('Profile')[0].email).toBe(sim.state.user.email);
		expect(out('Assistants').map((a: any) => a.id)).toEqual(
			sim.state.assistants.map((a: any) => a.id),
		);
		expect(out('Knowledgebases')).toHaveLength(sim.state.knowledgebases.length);
		expect(out('Documents').map((d: any) => d.id)).toEqual([1]);
		expect(out('Tools')).toHaveLength(sim.state.tools.length);
		expect(out('Lead')[0]).toMatchObject({
			phone_number: '+4915100000777',
			status: 'created',
			variables: { customer_name: 'Ada' },
		});
		expect(out('Campaigns')).toHaveLength(sim.state.campaigns.length);
		expect(out('Numbers')).toHaveLength(sim.state.phoneNumbers.length);
		expect(out('Chat')[0].conversation_id).toMatch(/^[0-9a-f-]{36}$/);
		expect(out('Calls')).toHaveLength(5);
	});

	it('reads a PDF from disk, uploads it as multipart, waits until processed and outputs an active document', async () => {
		const file = path.join(home.folder, 'manual.pdf');
		const content = Buffer.concat([
			Buffer.from('%PDF-1.4\n'),
			Buffer.alloc(256 * 1024, 7),
			Buffer.from('\n%%EOF'),
		]);
		fs.writeFileSync(file, content);
		const read = {
			...builtInNode('read', 'Read File', 'readWriteFile', 1, {
				operation: 'read',
				fileSelector: file,
			}),
			position: [200, 0],
		};
		const id = await home.createWorkflow(
			server,
			chain(
				'e2eUploadWf00001',
				[
					[
						'Upload',
						{
							resource: 'document',
							operation: 'create',
							knowledgebaseId: rl(1),
							name: 'Manual',
							type: 'auto',
							binaryPropertyName: 'data',
							options: { waitUntilProcessed: true, timeoutSeconds: 60 },
						},
					],
				],
				read,
			),
		);
		const before = sim.log.length;
		const result = await home.run(server, id);
		expect(outputOf(result.run, 'Upload').error).toBeUndefined();
		expect(result.why).toBeUndefined();
		const [doc] = outputOf(result.run, 'Upload').items.map((i: any) => i.json);
		expect(doc).toMatchObject({ name: 'Manual', type: 'pdf', status: 'active' });
		const uploads = sim.log
			.slice(before)
			.filter((e: any) => e.method === 'POST' && /\/documents$/.test(e.path));
		expect(uploads).toHaveLength(1);
		const sha = createHash('sha256').update(content).digest('hex');
		expect(JSON.stringify(uploads[0].body)).toContain(sha);
	});

	it('the lead-import example of examples/ imports and runs: every CSV row becomes a lead', async () => {
		copyExampleFiles(home.folder);
		const shipped = JSON.parse(
			fs.readFileSync(path.join(__dirname, '../../examples/lead-import-from-csv.json'), 'utf8'),
		);
		const workflow = tryItCopy(shipped, { folder: home.folder, credential: SIM_CREDENTIAL });
		workflow.nodes.find((n: any) => n.name === 'Create Lead').credentials = SIM_CREDENTIAL_REF;
		const id = await home.createWorkflow(server, workflow);
		const result = await home.run(server, id);
		expect(result.why).toBeUndefined();
		const leads = outputOf(result.run, 'Create Lead').items.map((i: any) => i.json);
		expect(leads.map((l: any) => l.phone_number)).toEqual([
			'+4915100000201',
			'+4915100000202',
			'+4915100000203',
		]);
		expect(leads[0].variables).toEqual({ customer_name: 'Ada Lovelace', email: 'ada@example.com' });
	});

	const fault = async (kind: string) => {
		const answer = await simPost(sim, 'faults', {
			method: 'POST',
			path: '/api/user/knowledgebases',
			rate: 1,
			kinds: [kind],
			times: 1,
		});
		expect(answer.status).toBe(200);
	};

	it('Knowledgebase → Create, a same-name knowledgebase made this morning: a 502 that stored nothing creates a new one (never the morning`s); a 502 after storing outputs the one it stored, once', async () => {
		const morning = new Date(Date.now() - 6 * 3_600_000).toISOString();
		const names = ['Returns policy (morning)', 'Opening hours (morning)'];
		names.forEach((name, n) =>
			sim.state.knowledgebases.push({
				id: 900 + n,
				name,
				description: null,
				created_at: morning,
				updated_at: morning,
			}),
		);
		const named = (name: string) =>
			sim.state.knowledgebases.filter((kb: any) => kb.name === name).map((kb: any) => kb.id);
		const created = async (n: number) => {
			const id = await home.createWorkflow(
				server,
				chain(`e2eLostKbWf0000${n}`, [
					['Create KB', { resource: 'knowledgebase', operation: 'create', name: names[n] }],
				]),
			);
			const result = await home.run(server, id);
			expect(result.why).toBeUndefined();
			return outputOf(result.run, 'Create KB').items.map((i: any) => i.json);
		};

		// the answer lost before anything was stored: the morning's is not taken, one new one is made
		await fault('refuse-502');
		const [fresh] = await created(0);
		expect(fresh).toMatchObject({ name: names[0] });
		expect(named(names[0])).toEqual([900, fresh.id]);

		// the answer lost after storing: the one it stored, not created again
		await fault('lose-502');
		const [own] = await created(1);
		expect(own).toMatchObject({ name: names[1], created_by_earlier_attempt: true });
		expect(named(names[1])).toEqual([901, own.id]);
	});
});
