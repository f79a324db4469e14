/**
 * Workflows and measurements of the queue-mode suite. Every workflow starts at
 * a production Webhook (or our trigger), so that the main enqueues it and a
 * worker runs it; the CLI's `execute` would run in-process and prove nothing.
 */
const TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistant';
const TRIGGER_TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger';
const KEY = 'sim-test-key-0123456789';

const rl = (value) => ({ __rl: true, mode: 'id', value: String(value) });
const credentialRef = (id) => ({ voiceChatAssistantApi: { id, name: id } });

function credential(id, baseUrl, { requestsPerMinute, burst } = {}) {
	const data = { apiKey: KEY, baseUrl };
	if (requestsPerMinute !== undefined) data.requestsPerMinute = requestsPerMinute;
	if (burst !== undefined) data.burst = burst;
	return { id, name: id, type: 'voiceChatAssistantApi', data };
}

function chain(nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	nodes.forEach((n, i) => (n.position = [i * 220, 0]));
	return connections;
}

function webhookNode(path, webhookId, options = {}) {
	return { id: 'webhook', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId, parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options } };
}

/** Webhook `{leads: [{phone, name}]}` → Split Out → Lead → Create (one request per item). */
function leadImportWorkflow({ id, path, webhookId, credentialId }) {
	const nodes = [
		webhookNode(path, webhookId),
		{ id: 'split', name: 'Split Out', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.leads', include: 'noOtherFields', options: {} } },
		{
			id: 'lead',
			name: 'Create Lead',
			type: TYPE,
			typeVersion: 1,
			credentials: credentialRef(credentialId),
			parameters: {
				resource: 'lead',
				operation: 'create',
				campaignId: rl(1),
				phoneNumber: '={{ $json.phone }}',
				variables: { values: [{ key: 'customer_name', value: '={{ $json.name }}' }] },
			},
		},
	];
	return { id, name: `Lead import ${path}`, nodes, connections: chain(nodes) };
}

const uploadParameters = (name) => ({
	resource: 'document',
	operation: 'create',
	knowledgebaseId: rl(1),
	name,
	type: 'auto',
	binaryPropertyName: 'data',
	options: { waitUntilProcessed: true, timeoutSeconds: 60 },
});

/** The Webhook node stores the request body as binary `data` (on the main), a worker uploads it. */
function uploadFromRequestWorkflow({ id, path, webhookId, credentialId }) {
	const nodes = [
		webhookNode(path, webhookId, { binaryPropertyName: 'data' }),
		{ id: 'upload', name: 'Upload', type: TYPE, typeVersion: 1, credentials: credentialRef(credentialId), parameters: uploadParameters('Manual from the main') },
	];
	return { id, name: 'Upload a received file', nodes, connections: chain(nodes) };
}

/** Convert to File makes the binary on the worker from base64 in the request; the same worker uploads it. */
function uploadFromWorkerBinaryWorkflow({ id, path, webhookId, credentialId }) {
	const nodes = [
		webhookNode(path, webhookId),
		{
			id: 'convert',
			name: 'Convert to File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			parameters: { operation: 'toBinary', sourceProperty: 'body.content', binaryPropertyName: 'data', options: { fileName: 'worker.pdf', mimeType: 'application/pdf' } },
		},
		{ id: 'upload', name: 'Upload', type: TYPE, typeVersion: 1, credentials: credentialRef(credentialId), parameters: uploadParameters('Manual made on a worker') },
	];
	return { id, name: 'Upload a file made in the workflow', nodes, connections: chain(nodes) };
}

function triggerWorkflow({ id, webhookId, credentialId, assistantId }) {
	const nodes = [
		{
			id: 'trigger',
			name: 'Call Ended',
			type: TRIGGER_TYPE,
			typeVersion: 1,
			webhookId,
			credentials: credentialRef(credentialId),
			parameters: { event: 'inboundCallCompleted', assistantId: rl(assistantId) },
		},
	];
	return { id, name: 'Call completed', nodes, connections: chain(nodes) };
}

const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/** Executions of a workflow (newest last), with their parsed run data when `withData`. */
async function executionsOf(postgres, workflowId, { withData = false, flatted } = {}) {
	const rows = await postgres.query('select id, status, mode, "createdAt", "startedAt", "stoppedAt" from execution_entity where "workflowId" = $1 order by id', [workflowId]);
	if (withData && rows.length) {
		const data = await postgres.query('select "executionId", data from execution_data where "executionId" = any($1::int[])', [rows.map((r) => Number(r.id))]);
		const byId = new Map(data.map((d) => [String(d.executionId), d.data]));
		for (const row of rows) {
			const raw = byId.get(String(row.id));
			row.raw = raw;
			row.run = raw ? flatted.parse(raw) : undefined;
		}
	}
	return rows;
}

/** Output items (json) and error of a node in a parsed run. */
function nodeOutput(run, nodeName) {
	const task = run?.resultData?.runData?.[nodeName]?.[0];
	return { items: (task?.data?.main?.[0] ?? []).map((i) => i.json), error: task?.error };
}

async function waitFor(what, probe, timeoutMs = 60_000, intervalMs = 300) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, intervalMs));
	}
}

module.exports = {
	credential,
	leadImportWorkflow,
	uploadFromRequestWorkflow,
	uploadFromWorkerBinaryWorkflow,
	triggerWorkflow,
	executionsOf,
	nodeOutput,
	waitFor,
	FINISHED,
	KEY,
};
