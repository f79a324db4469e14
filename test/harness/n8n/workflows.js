/**
 * Workflow builders the harnesses share (the package's node types, credentials
 * for the simulator, Webhook / Manual Trigger starts, linear chains) and the
 * readers of a node's output in a run record.
 */
const TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistant';
const TRIGGER_TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger';
/** The simulator's API key. */
const KEY = 'sim-test-key-0123456789';

const rl = (value) => ({ __rl: true, mode: 'id', value: String(value) });
const credentialRef = (id, name = id) => ({ voiceChatAssistantApi: { id, name } });

/** A credential of the package for the simulator at `baseUrl`, with the optional rate limits. */
function credential(id, baseUrl, { requestsPerMinute, burst, name = id } = {}) {
	const data = { apiKey: KEY, baseUrl };
	if (requestsPerMinute !== undefined) data.requestsPerMinute = requestsPerMinute;
	if (burst !== undefined) data.burst = burst;
	return { id, name, type: 'voiceChatAssistantApi', data };
}

/** The connections of a linear chain of nodes, each node's main output to the next one. */
function connections(nodes) {
	const out = {};
	for (let i = 0; i < nodes.length - 1; i++)
		out[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return out;
}

/** connections() of a chain whose nodes are placed 220 px apart. */
function chain(nodes) {
	nodes.forEach((n, i) => (n.position = [i * 220, 0]));
	return connections(nodes);
}

function manualTriggerNode({ id = 's', name = 'Start', position = [0, 0] } = {}) {
	return {
		id,
		name,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position,
		parameters: {},
	};
}

/** Manual Trigger → Account → Get Profile with the credential `credentialId`. */
function profileWorkflow(id, credentialId) {
	const nodes = [
		manualTriggerNode({ id: 'a' }),
		{
			id: 'b',
			name: 'Get Profile',
			type: TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: { resource: 'account', operation: 'getProfile' },
			credentials: credentialRef(credentialId),
		},
	];
	return { id, name: `Profile ${credentialId}`, nodes, connections: connections(nodes) };
}

function webhookNode(path, webhookId, options = {}) {
	return {
		id: 'webhook',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options },
	};
}

/** Lead → Create in campaign 1, phone and name from the item's `phone` and `name`. */
function createLeadNode({
	credentialId,
	credentialName = credentialId,
	id = 'lead',
	name = 'Create Lead',
	position,
} = {}) {
	return {
		id,
		name,
		type: TYPE,
		typeVersion: 1,
		...(position ? { position } : {}),
		credentials: credentialRef(credentialId, credentialName),
		parameters: {
			resource: 'lead',
			operation: 'create',
			campaignId: rl(1),
			phoneNumber: '={{ $json.phone }}',
			variables: { values: [{ key: 'customer_name', value: '={{ $json.name }}' }] },
		},
	};
}

/** Webhook `{leads: [{phone, name}]}` → Split Out → Lead → Create (one request per item). */
function leadImportWorkflow({ id, path, webhookId, credentialId }) {
	const nodes = [
		webhookNode(path, webhookId),
		{
			id: 'split',
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'body.leads', include: 'noOtherFields', options: {} },
		},
		createLeadNode({ credentialId }),
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
		{
			id: 'upload',
			name: 'Upload',
			type: TYPE,
			typeVersion: 1,
			credentials: credentialRef(credentialId),
			parameters: uploadParameters('Manual from the main'),
		},
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
			parameters: {
				operation: 'toBinary',
				sourceProperty: 'body.content',
				binaryPropertyName: 'data',
				options: { fileName: 'worker.pdf', mimeType: 'application/pdf' },
			},
		},
		{
			id: 'upload',
			name: 'Upload',
			type: TYPE,
			typeVersion: 1,
			credentials: credentialRef(credentialId),
			parameters: uploadParameters('Manual made on a worker'),
		},
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

/** Output items (as n8n stores them, `{json, ...}`) and error of a node in a run record of any shape (execute output, execution data). */
/**
 * A polling trigger's Poll Times that make n8n's own scheduler poll every `seconds` (6 → every 10 s):
 * n8n refuses a cron under a minute, but takes several once-a-minute crons, here one per slot of the
 * minute. Real scheduled polls, with n8n saving the trigger's state between them, without waiting minutes.
 */
function pollEvery(seconds = 10) {
	if (60 % seconds !== 0) throw new Error(`pollEvery: ${seconds} does not divide a minute`);
	return {
		item: Array.from({ length: 60 / seconds }, (_, i) => ({
			mode: 'custom',
			cronExpression: `${i * seconds} * * * * *`,
		})),
	};
}

function outputOf(run, nodeName) {
	const runData = run?.data?.resultData?.runData ?? run?.resultData?.runData ?? run?.runData;
	const task = runData?.[nodeName]?.[0];
	return { items: task?.data?.main?.[0] ?? [], error: task?.error };
}

/** Output items' json and error of a node in a parsed run (`{resultData}`). */
function nodeOutput(run, nodeName) {
	const task = run?.resultData?.runData?.[nodeName]?.[0];
	return { items: (task?.data?.main?.[0] ?? []).map((i) => i.json), error: task?.error };
}

module.exports = {
	pollEvery,
	TYPE,
	TRIGGER_TYPE,
	KEY,
	rl,
	credentialRef,
	credential,
	connections,
	chain,
	manualTriggerNode,
	profileWorkflow,
	webhookNode,
	createLeadNode,
	leadImportWorkflow,
	uploadParameters,
	uploadFromRequestWorkflow,
	uploadFromWorkerBinaryWorkflow,
	triggerWorkflow,
	outputOf,
	nodeOutput,
};
