/**
 * The shipped examples (examples/*.json) are what a user imports into a fresh
 * n8n: no credential, no fixed ID, no placeholder of the try-it command, files
 * read from n8n's file folder; the README describes each in one line. try-it
 * imports its own copies (scripts/try-it-examples.js), checked here too.
 */
import { existsSync, readFileSync } from 'fs';
import { basename, extname, join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const tryIt = require('../../scripts/try-it-examples') as {
	FILES_DIR: string;
	PICKED_BY_TRY_IT: Record<string, string>;
	readExamples(): Array<{ file: string; workflow: Workflow }>;
	tryItCopy(
		workflow: Workflow,
		options: { folder: string; credential: { id: string; name: string } },
	): Workflow;
};

interface WorkflowNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Workflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
}

const ROOT = join(__dirname, '../..');
const PACKAGE = 'n8n-nodes-voice-chat-assistant';
const examples = tryIt.readExamples();
const ours = (w: Workflow) => w.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`));
const byFile = (file: string) => examples.find((e) => e.file === file)!.workflow;

/** Every resource locator value in some parameters, with its key. */
function locators(value: unknown, key = ''): Array<{ key: string; mode: string; value: string }> {
	if (Array.isArray(value)) return value.flatMap((v) => locators(v, key));
	if (!value || typeof value !== 'object') return [];
	const object = value as Record<string, unknown>;
	if (object.__rl === true)
		return [{ key, mode: String(object.mode), value: String(object.value ?? '') }];
	return Object.entries(object).flatMap(([k, v]) => locators(v, k));
}

describe('the shipped examples', () => {
	it('are there, each with its own workflow id', () => {
		expect(examples.length).toBeGreaterThanOrEqual(7);
		expect(new Set(examples.map((e) => e.workflow.id)).size).toBe(examples.length);
	});

	it.each(examples.map((e) => [e.file, e.workflow] as const))(
		'%s carries no placeholder and no credential',
		(_file, workflow) => {
			const text = JSON.stringify(workflow);
			expect(text).not.toMatch(/\{\{\s*DEMO_DIR\s*\}\}|REPLACE_WITH|simulator/i);
			expect(workflow.nodes.filter((n) => n.credentials).map((n) => n.name)).toEqual([]);
		},
	);

	it.each(examples.map((e) => [e.file, e.workflow] as const))(
		'%s leaves every object to pick: no fixed ID',
		(_file, workflow) => {
			const fixed = ours(workflow)
				.flatMap((n) => locators(n.parameters).map((l) => ({ node: n.name, ...l })))
				.filter((l) => !l.value.startsWith('=') && l.value !== '');
			expect(fixed).toEqual([]);
		},
	);

	it.each(examples.map((e) => [e.file, e.workflow] as const))(
		"%s reads its files from n8n's file folder, and ships them",
		(_file, workflow) => {
			for (const node of workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.readWriteFile')) {
				const path = String(node.parameters.fileSelector);
				expect(path.startsWith(`${tryIt.FILES_DIR}/`)).toBe(true);
				expect(existsSync(join(ROOT, 'examples', basename(path)))).toBe(true);
			}
		},
	);

	it('the lead import runs again to finish an interrupted import with the settings it ships: On Duplicate at its default, as docs/exactly-once.md tells', () => {
		const lead = ours(byFile('lead-import-from-csv.json')).find(
			(n) => n.parameters.operation === 'create',
		)!;
		expect((lead.parameters.options as Record<string, unknown>).onDuplicate).toBeUndefined();
		expect(readFileSync(join(ROOT, 'docs/exactly-once.md'), 'utf8')).toContain(
			'Use Stored Lead If Identical** (default)',
		);
	});

	it('the lead import makes every CSV column but the phone a variable (Variables From: Input Fields)', () => {
		const lead = ours(byFile('lead-import-from-csv.json')).find(
			(n) => n.parameters.operation === 'create',
		)!;
		expect(lead.parameters.resource).toBe('lead');
		expect(lead.parameters.variablesFrom).toBe('inputFields');
		expect(lead.parameters.variables).toBeUndefined();
		const header = readFileSync(join(ROOT, 'examples/leads.csv'), 'utf8').split('\n')[0].split(',');
		expect(header).toContain('phone');
		expect(lead.parameters.phoneNumber).toBe('={{ $json.phone }}');
	});

	it('the document upload uploads a document for an assistant to know, not the lead list', () => {
		const workflow = byFile('document-upload-from-file.json');
		const file = String(
			workflow.nodes.find((n) => n.type === 'n8n-nodes-base.readWriteFile')!.parameters
				.fileSelector,
		);
		expect(basename(file)).not.toBe('leads.csv');
		const upload = ours(workflow).find((n) => n.parameters.resource === 'document')!;
		expect(upload.parameters.type).toBe(extname(file).slice(1));
		expect(readFileSync(join(ROOT, 'examples', basename(file)), 'utf8').length).toBeGreaterThan(
			200,
		);
	});

	it('has an example for each trigger', () => {
		const types = examples.flatMap((e) => e.workflow.nodes.map((n) => n.type));
		expect(types).toContain(`${PACKAGE}.voiceChatAssistantTrigger`);
		expect(types).toContain(`${PACKAGE}.voiceChatAssistantPollingTrigger`);
	});

	it('a webhook call trigger that leads to a message to the caller passes an If node on `caught_up` first', () => {
		// docs/triggers/call-ended-webhook.md: calls picked up after a downtime come hours late, with
		// caught_up: true; a workflow that texts callers skips them
		const texting = examples.filter(({ workflow }) =>
			workflow.nodes.some(
				(n) => n.type.startsWith(`${PACKAGE}.`) && n.parameters.resource === 'sms',
			),
		);
		const callTriggered = texting.filter(({ workflow }) =>
			workflow.nodes.some(
				(n) =>
					n.type === `${PACKAGE}.voiceChatAssistantTrigger` &&
					['callCompleted', 'inboundCallCompleted', undefined].includes(
						n.parameters.event as string | undefined,
					),
			),
		);
		expect(callTriggered.map((e) => e.file)).toContain('voice-call-follow-up-agent.json');
		for (const { file, workflow } of callTriggered) {
			type Connections = Record<string, { main?: Array<Array<{ node: string }>> }>;
			const connections = (workflow as Workflow & { connections: Connections }).connections;
			const trigger = workflow.nodes.find(
				(n) => n.type === `${PACKAGE}.voiceChatAssistantTrigger`,
			)!;
			const next = (connections[trigger.name]?.main ?? []).flat().map((c) => c.node);
			const guards = workflow.nodes.filter(
				(n) =>
					next.includes(n.name) &&
					n.type === 'n8n-nodes-base.if' &&
					JSON.stringify(n.parameters).includes('$json.caught_up'),
			);
			expect({ file, next, guards: guards.length }).toEqual({ file, next, guards: 1 });
			expect(next).toHaveLength(1);
		}
	});

	it('each is described in one line of the README', () => {
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
		for (const { file } of examples) {
			const rows = readme.split('\n').filter((l) => l.startsWith(`| [${file}]`));
			expect({ file, rows: rows.length }).toEqual({ file, rows: 1 });
		}
	});
});

describe("try-it's copies of the examples", () => {
	const credential = { id: 'simCred', name: 'Simulator' };
	const copies = examples.map((e) => ({
		file: e.file,
		copy: tryIt.tryItCopy(e.workflow, { folder: '/tmp/try', credential }),
	}));

	it('put the credential on every node of the package, and on no other', () => {
		for (const { copy } of copies) {
			for (const node of copy.nodes) {
				if (node.type.startsWith(`${PACKAGE}.`))
					expect(node.credentials).toEqual({ voiceChatAssistantApi: credential });
				else expect(node.credentials).toBeUndefined();
			}
		}
	});

	it("pick the simulator's assistant, campaign and knowledgebase, and read files from try-it's folder", () => {
		const lead = ours(copies.find((c) => c.file === 'lead-import-from-csv.json')!.copy)[0];
		expect(lead.parameters.campaignId).toEqual({
			__rl: true,
			mode: 'id',
			value: tryIt.PICKED_BY_TRY_IT.campaignId,
		});
		const doc = copies.find((c) => c.file === 'document-upload-from-file.json')!.copy;
		expect(
			doc.nodes.find((n) => n.type === 'n8n-nodes-base.readWriteFile')!.parameters.fileSelector,
		).toBe('/tmp/try/opening-hours.txt');
		expect(ours(doc)[0].parameters.knowledgebaseId).toEqual({ __rl: true, mode: 'id', value: '1' });
	});

	it('leave expressions and the shipped files as they are', () => {
		const agent = copies.find((c) => c.file === 'ai-agent-with-tools.json')!.copy;
		const createLead = ours(agent).find((n) => n.parameters.resource === 'lead')!;
		expect(String((createLead.parameters.campaignId as { value: string }).value)).toMatch(
			/^=\{\{ \$fromAI/,
		);
		expect(JSON.stringify(byFile('lead-import-from-csv.json'))).not.toContain('/tmp/try');
	});
});
