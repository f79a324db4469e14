/**
 * Workflow builders the harnesses share (the package's node types, credentials
 * for the simulator, Webhook / Manual Trigger starts, linear chains) and the
 * readers of a node's output in a run record.
 */
const TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistant';
const TRIGGER_TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger';
const POLLING_TRIGGER_TYPE = 'n8n-nodes-voice-chat-assistant.voiceChatAssistantPollingTrigger';
/** The simulator's API key. */
const KEY = 'sim-test-key-0123456789';

const rl = (value) => ({ __rl: true, mode: 'id', value: String(value) });
const credentialRef = (id, name = id) => ({ voiceChatAssistantApi: { id, name } });
/** The reference to the credential of the simulator that the e2e homes hold (simulatorHome.js). */
const SIM_CREDENTIAL_REF = credentialRef('simCredential001', 'sim');

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

/** A node of the package's action node type, with the simulator's credential unless `credentials`. */
function packageNode({
	id,
	name,
	position,
	parameters,
	credentials = SIM_CREDENTIAL_REF,
	...more
}) {
	return {
		id,
		name,
		type: TYPE,
		typeVersion: 1,
		...(position ? { position } : {}),
		parameters,
		credentials,
		...more,
	};
}

/** A node of n8n's own (Split Out, Convert to File...) without position or credentials. */
const builtInNode = (id, name, type, typeVersion, parameters) => ({
	id,
	name,
	type: `n8n-nodes-base.${type}`,
	typeVersion,
	parameters,
});

/**
 * Manual Trigger → `first` (when given) → a node of the package per step (`[name, parameters]`),
 * each executed once, 200 px apart, with the simulator's credential (SIM_CREDENTIAL_REF).
 */
function packageChain(id, steps, first) {
	const nodes = [manualTriggerNode({ id: 'start' })];
	if (first) nodes.push(first);
	for (const [name, parameters] of steps) {
		const position = [nodes.length * 200, 0];
		nodes.push(packageNode({ id: name, name, position, parameters, executeOnce: true }));
	}
	return { id, name: id, nodes, connections: connections(nodes) };
}

/** Manual Trigger → Account → Get Profile with the credential `credentialId`. */
function profileWorkflow(id, credentialId) {
	const nodes = [
		manualTriggerNode({ id: 'a' }),
		packageNode({
			id: 'b',
			name: 'Get Profile',
			position: [200, 0],
			parameters: { resource: 'account', operation: 'getProfile' },
			credentials: credentialRef(credentialId),
		}),
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
	return packageNode({
		id,
		name,
		position,
		credentials: credentialRef(credentialId, credentialName),
		parameters: {
			resource: 'lead',
			operation: 'create',
			campaignId: rl(1),
			phoneNumber: '={{ $json.phone }}',
			variables: { values: [{ key: 'customer_name', value: '={{ $json.name }}' }] },
		},
	});
}

/** A production Webhook (`path`, `webhookId`, its `options`) → `nodes`, a chain 220 px apart. */
function webhookChain({ id, name, path, webhookId, options }, nodes) {
	const all = [webhookNode(path, webhookId, options), ...nodes];
	return { id, name, nodes: all, connections: chain(all) };
}

/** Webhook `{leads: [{phone, name}]}` → Split Out → Lead → Create (one request per item). */
function leadImportWorkflow({ id, path, webhookId, credentialId }) {
	const split = { fieldToSplitOut: 'body.leads', include: 'noOtherFields', options: {} };
	return webhookChain({ id, name: `Lead import ${path}`, path, webhookId }, [
		builtInNode('split', 'Split Out', 'splitOut', 1, split),
		createLeadNode({ credentialId }),
	]);
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

/** Document → Create (named Upload) of the binary `data` as the document `documentName`. */
const uploadNode = (credentialId, documentName) =>
	packageNode({
		id: 'upload',
		name: 'Upload',
		credentials: credentialRef(credentialId),
		parameters: uploadParameters(documentName),
	});

/** The Webhook node stores the request body as binary `data` (on the main), a worker uploads it. */
function uploadFromRequestWorkflow({ id, path, webhookId, credentialId }) {
	const options = { binaryPropertyName: 'data' };
	return webhookChain({ id, name: 'Upload a received file', path, webhookId, options }, [
		uploadNode(credentialId, 'Manual from the main'),
	]);
}

/** Convert to File makes the binary on the worker from base64 in the request; the same worker uploads it. */
function uploadFromWorkerBinaryWorkflow({ id, path, webhookId, credentialId }) {
	const toPdf = {
		operation: 'toBinary',
		sourceProperty: 'body.content',
		binaryPropertyName: 'data',
		options: { fileName: 'worker.pdf', mimeType: 'application/pdf' },
	};
	return webhookChain({ id, name: 'Upload a file made in the workflow', path, webhookId }, [
		builtInNode('convert', 'Convert to File', 'convertToFile', 1.1, toPdf),
		uploadNode(credentialId, 'Manual made on a worker'),
	]);
}

/**
 * A trigger node of the package at 0,0: the webhook trigger unless `type` says (POLLING_TRIGGER_TYPE),
 * named "Call Ended" unless `name`, with the simulator's credential unless `credentials`.
 */
function triggerNode({
	id = 't',
	name = 'Call Ended',
	type = TRIGGER_TYPE,
	webhookId,
	parameters,
	credentials = SIM_CREDENTIAL_REF,
}) {
	return {
		id,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		...(webhookId ? { webhookId } : {}),
		parameters,
		credentials,
	};
}

/** A workflow of one trigger node (triggerNode's options `node`), named `name` (its id unless told). */
function triggerOnlyWorkflow(id, node, name = id) {
	return { id, name, nodes: [triggerNode(node)], connections: {} };
}

/**
 * The trigger alone on the inbound calls of `assistantId` that end, answering the service as
 * `responseMode` says, with its `options` and the simulator's credential.
 */
function inboundCallsWorkflow({
	id,
	name = id,
	webhookId,
	assistantId,
	options = {},
	responseMode = 'onReceived',
}) {
	const parameters = {
		event: 'inboundCallCompleted',
		assistantId: rl(assistantId),
		responseMode,
		options,
	};
	return triggerOnlyWorkflow(id, { webhookId, parameters }, name);
}

/** The trigger on the inbound calls of `assistantId` that end, with the credential `credentialId`. */
function triggerWorkflow({ id, webhookId, credentialId, assistantId }) {
	const parameters = { event: 'inboundCallCompleted', assistantId: rl(assistantId) };
	const credentials = credentialRef(credentialId);
	return triggerOnlyWorkflow(
		id,
		{ id: 'trigger', webhookId, parameters, credentials },
		'Call completed',
	);
}

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

/** Output items (as n8n stores them, `{json, ...}`) and error of a node in a run record of any shape (execute output, execution data). */
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
	POLLING_TRIGGER_TYPE,
	KEY,
	rl,
	credentialRef,
	SIM_CREDENTIAL_REF,
	credential,
	connections,
	chain,
	manualTriggerNode,
	packageNode,
	builtInNode,
	packageChain,
	profileWorkflow,
	webhookNode,
	webhookChain,
	createLeadNode,
	leadImportWorkflow,
	uploadParameters,
	uploadFromRequestWorkflow,
	uploadFromWorkerBinaryWorkflow,
	triggerNode,
	triggerOnlyWorkflow,
	inboundCallsWorkflow,
	triggerWorkflow,
	outputOf,
	nodeOutput,
};
