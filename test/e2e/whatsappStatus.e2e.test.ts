/**
 * The WhatsApp Message Status event in a real n8n server: the simulator posts
 * read receipts to the production URL as the service does, signed over the
 * exact bytes (compact, indented with keys in another order, and with PHP's
 * escapes) with the secret of the node's signing credential (imported into
 * n8n). 10 correctly signed posts start 10 executions; 10 posts with a wrong
 * or without a signature are each answered 401 and start nothing; a
 * redelivered post starts no second execution; a correctly signed post
 * written an hour ago is refused; the secret is in neither the stored
 * workflow, its versions, the executions nor n8n's log, and the stored
 * credential holds it encrypted only.
 */
const fs = require('fs');
const path = require('path');
const { simCredential, startSimulatorAndHome, waitFor } = require('../harness/n8n');

const SECRET = 'whsec_e2e_0123456789abcdef';
const WORKFLOW_ID = 'e2eWhatsappSts01';
const WEBHOOK_ID = '7a1e2d3c-4b5a-4f6e-9d8c-0b1a2c3d4e5f';
const FORMATS = ['compact', 'pretty', 'escaped'];

describe('real n8n server: WhatsApp Message Status', () => {
	let sim: any;
	let home: any;
	let server: any;
	let url: string;
	const executions = () =>
		home.queryDb(`select id, status from execution_entity where workflowId = '${WORKFLOW_ID}'`) as {
			id: string;
			status: string;
		}[];
	const postStatus = async (body: object) => {
		const res = await fetch(`${sim.url}/__sim/whatsapp/status`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ url, ...body }),
		});
		expect(res.status).toBe(200);
		return (await res.json()) as any;
	};
	const settle = () => new Promise((r) => setTimeout(r, 1500));

	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome({
			simulator: { redeliveryDelaysMs: [] },
			credentials: (s: any) => [
				simCredential(s),
				{
					id: 'simSigning000001',
					name: 'Sender 1 signing secret',
					type: 'voiceChatAssistantWhatsAppSigningApi',
					data: { signingSecret: SECRET },
				},
			],
		}));
		await home.importWorkflow({
			id: WORKFLOW_ID,
			name: 'WhatsApp read receipts',
			nodes: [
				{
					id: 't',
					name: 'Message Status',
					type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId: WEBHOOK_ID,
					parameters: {
						event: 'whatsappMessageStatus',
						messageStatuses: [],
						senders: '',
						options: {},
					},
					credentials: {
						voiceChatAssistantApi: { id: 'simCredential001', name: 'sim' },
						voiceChatAssistantWhatsAppSigningApi: {
							id: 'simSigning000001',
							name: 'Sender 1 signing secret',
						},
					},
				},
				{
					id: 'n',
					name: 'Done',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [220, 0],
					parameters: {},
				},
			],
			connections: { 'Message Status': { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		});
		await home.activate(WORKFLOW_ID);
		server = await home.start();
		url = `${server.baseUrl.replace(/\/$/, '')}/webhook/${WEBHOOK_ID}/webhook`;
		// the webhook answers once n8n has registered it: an unsigned post is refused and starts nothing
		for (let tries = 0; ; tries++) {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			if (res.status === 401) break;
			if (tries > 60)
				throw new Error(`the webhook never answered (last: ${res.status} ${await res.text()})`);
			await new Promise((r) => setTimeout(r, 500));
		}
	});

	afterAll(async () => {
		await server?.stop();
		await sim?.close();
		await home?.cleanup();
	});

	it('10 correctly signed posts (compact, re-ordered and indented, PHP-escaped bodies) start 10 executions', async () => {
		const before = executions().length;
		const statuses = ['sent', 'delivered', 'read', 'failed', 'undelivered'];
		for (let i = 0; i < 10; i++) {
			const posted = await postStatus({
				status: statuses[i % statuses.length],
				secret: SECRET,
				format: FORMATS[i % FORMATS.length],
				display_name: 'Müller & Söhne / Support',
			});
			expect(posted.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
			expect([posted.delivery.status, posted.delivery.response]).toEqual([200, { received: true }]);
		}
		await waitFor(
			'10 executions',
			() => executions().filter((e) => e.status === 'success').length >= before + 10,
		);
		await settle();
		expect(executions().map((e) => e.status)).toEqual(
			Array.from({ length: before + 10 }, () => 'success'),
		);
		// each item holds the sender's name decoded from the bytes as sent (also from \u and \/ escapes)
		const items = home.queryDb(
			`select d.data from execution_data d join execution_entity e on e.id = d.executionId where e.workflowId = '${WORKFLOW_ID}'`,
		) as { data: string }[];
		expect(items).toHaveLength(before + 10);
		for (const { data } of items) {
			expect(data).toContain('Müller & Söhne / Support');
			expect(data).toContain('message_status');
		}
	});

	it('10 posts with a wrong or without a signature are each answered 401 and start nothing', async () => {
		const before = executions().length;
		const answers = [];
		for (let i = 0; i < 10; i++) {
			const posted = await postStatus(
				i % 2 === 0
					? { status: 'read', secret: SECRET, wrongSignature: true }
					: { status: 'read', unsigned: true },
			);
			answers.push([posted.delivery.status, posted.delivery.response]);
		}
		expect(answers).toEqual(Array.from({ length: 10 }, () => [401, { message: 'Unauthorized' }]));
		await settle();
		expect(executions()).toHaveLength(before);
		// a 4xx is not retried by the service
		const refused = sim.state.webhookDeliveries.filter(
			(d: any) => d.kind === 'message_status' && d.status === 401,
		);
		expect(refused).toHaveLength(10);
	});

	it('a redelivered post starts no second execution', async () => {
		const before = executions().length;
		const posted = await postStatus({
			status: 'delivered',
			secret: SECRET,
			format: 'pretty',
			redeliver: true,
		});
		expect([posted.delivery.status, posted.delivery.response]).toEqual([200, { received: true }]);
		expect([posted.redelivery.status, posted.redelivery.response]).toEqual([
			200,
			{ received: true, duplicate: true },
		]);
		await waitFor('the execution', () => executions().length >= before + 1);
		await settle();
		expect(executions()).toHaveLength(before + 1);
	});

	it('refuses a correctly signed post written an hour ago (a captured post played back) with 401, starting nothing', async () => {
		const before = executions().length;
		const posted = await postStatus({ status: 'read', secret: SECRET, age_seconds: 3600 });
		expect(posted.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
		expect([posted.delivery.status, posted.delivery.response]).toEqual([
			401,
			{ message: 'Unauthorized: "timestamp" is too old' },
		]);
		await settle();
		expect(executions()).toHaveLength(before);
		// one within the service's retries is taken
		const late = await postStatus({ status: 'read', secret: SECRET, age_seconds: 200 });
		expect([late.delivery.status, late.delivery.response]).toEqual([200, { received: true }]);
		await waitFor('the execution', () => executions().length >= before + 1);
	});

	it('keeps the secret out of the stored workflow, its versions, the executions and the log; the credential holds it encrypted', async () => {
		expect(executions().length).toBeGreaterThanOrEqual(12);
		const workflows = home.queryDb(
			`select nodes from workflow_entity where id = '${WORKFLOW_ID}'`,
		) as { nodes: string }[];
		expect(workflows).toHaveLength(1);
		// the node names its credential by id and name only
		expect(workflows[0].nodes).toContain('simSigning000001');
		const tables = (
			home.queryDb(`select name from sqlite_master where type = 'table'`) as { name: string }[]
		).map((t) => t.name);
		const versions = tables.includes('workflow_history')
			? (home.queryDb(`select nodes from workflow_history where workflowId = '${WORKFLOW_ID}'`) as {
					nodes: string;
				}[])
			: [];
		const runs = home.queryDb(
			`select d.data, d.workflowData from execution_data d join execution_entity e on e.id = d.executionId where e.workflowId = '${WORKFLOW_ID}'`,
		) as { data: string; workflowData: string }[];
		expect(runs.length).toBe(executions().length);
		const logs = [home.logFile, path.join(home.folder, 'n8n-start.log')]
			.filter((f) => fs.existsSync(f))
			.map((f) => fs.readFileSync(f, 'utf8'));
		expect(logs.join('')).toContain('refused');
		const stored = JSON.stringify({ workflows, versions, runs, logs });
		expect(stored).not.toContain(SECRET);
		const credential = home.queryDb(
			`select data from credentials_entity where id = 'simSigning000001'`,
		) as { data: string }[];
		expect(credential).toHaveLength(1);
		expect(credential[0].data).not.toContain(SECRET);
	});
});

export {};
