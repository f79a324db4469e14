/**
 * Small builders for the workflows the tests run, and a typed handle on the
 * simulator (test/simulator/server.js).
 */
import { createHash } from 'node:crypto';
import { forgetProcess } from '../../../nodes/VoiceChatAssistantTrigger/core/memory';

import type { IDataObject, INode } from 'n8n-workflow';

import type { ItemFile, WorkflowJson, WorkflowResult } from './runWorkflow';
import { runWorkflow, TYPES } from './runWorkflow';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const simulator = require('../../simulator/server');

export const SIM_API_KEY: string = simulator.DEFAULT_API_KEY ?? 'sim-test-key-0123456789';

export interface SimLogEntry {
	index: number;
	method: string;
	path: string;
	query: IDataObject;
	headers: IDataObject;
	body: unknown;
	status: number;
}

export interface Simulator {
	url: string;
	readonly state: any;
	readonly log: SimLogEntry[];
	reset(): void;
	clearLog(): void;
	setConfig(config: IDataObject): void;
	close(): Promise<void>;
}

async function startSimulator(options: IDataObject = {}): Promise<Simulator> {
	return (await simulator.startSimulator({ port: 0, rateLimit: false, ...options })) as Simulator;
}

/**
 * The simulator of the tests of the enclosing `describe`: started before them
 * and closed after them; with `resetEach` its state and log are reset before
 * each test. The value stands for it from the first test on.
 */
export function simulatorForTests(
	options: IDataObject = {},
	{ resetEach = false } = {},
): Simulator {
	let sim: Simulator | undefined;
	beforeAll(async () => {
		sim = await startSimulator(options);
	});
	afterAll(async () => {
		await sim?.close();
	});
	if (resetEach) {
		beforeEach(() => {
			sim!.reset();
			sim!.clearLog();
		});
	}
	return new Proxy({} as Simulator, {
		get(_target, key) {
			if (!sim) throw new Error('the simulator starts before the first test');
			const value = Reflect.get(sim, key, sim);
			return typeof value === 'function' ? value.bind(sim) : value;
		},
	});
}

/** Calls the simulator's control API (`/__sim/...`). */
export async function control<T = IDataObject>(
	sim: Simulator,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${sim.url}/__sim/${path}`, {
		method: body === undefined ? 'GET' : 'POST',
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
	return (await response.json()) as T;
}

/** A request to the simulated service's own API (`/api/...`) with the simulator's key, as a client sends it. */
export async function serviceRequest(
	sim: Simulator,
	method: string,
	path: string,
	body?: IDataObject,
): Promise<Response> {
	return await fetch(`${sim.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${SIM_API_KEY}`,
			'content-type': 'application/json',
			accept: 'application/json',
		},
		body: body && JSON.stringify(body),
	});
}

/** The same, for the answer's JSON (a refused request throws, naming the service's answer). */
export async function serviceApi(
	sim: Simulator,
	method: string,
	path: string,
	body?: IDataObject,
): Promise<IDataObject> {
	const response = await serviceRequest(sim, method, path, body);
	const answer = (await response.json()) as IDataObject;
	if (!response.ok)
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
	return answer;
}

/** Starts or stops a campaign through the service's API. */
export const setCampaignStatus = (sim: Simulator, campaignId: number, action: 'start' | 'stop') =>
	serviceApi(sim, 'POST', '/api/user/campaigns/update-status', { campaign_id: campaignId, action });

/** n8n stops and starts again: the webhook trigger forgets what it held in the process. */
export function forgetProcessMemory() {
	forgetProcess();
}

/**
 * For a trigger test file: Date.now shifted by `advance(ms)` (the simulator's and the node's
 * clock; time never goes back between tests, the node's rate limiter remembers it), and before
 * each test the webhook trigger's process memory forgotten (each test is a process of its own).
 */
export function shiftedClockPerTest(): { advance: (ms: number) => void } {
	const realNow = Date.now.bind(Date);
	let offset = 0;
	beforeEach(() => {
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
		forgetProcessMemory();
	});
	afterEach(() => {
		jest.restoreAllMocks();
	});
	return {
		advance: (ms: number) => {
			offset += ms;
		},
	};
}

/** Credential data for the simulator, with budgets high enough never to hold a test back. */
export function simCredentials(sim: Simulator, extra: IDataObject = {}) {
	return {
		apiKey: SIM_API_KEY,
		baseUrl: sim.url,
		requestsPerMinute: 100_000,
		burst: 100_000,
		...extra,
	};
}

/** The credential reference on the package's nodes (n8n's id and name of the saved credential). */
export const SIM_ACCOUNT = {
	voiceChatAssistantApi: { id: 'credential-1', name: 'Simulator account' },
};

export type WorkflowNode = WorkflowJson['nodes'][number];

/** A node of the package with the simulator account's credential; `extra` adds node fields and credentials. */
export function serviceNode(
	name: string,
	type: string,
	parameters: IDataObject,
	extra: Partial<INode> = {},
): WorkflowNode {
	return {
		name,
		type,
		parameters: parameters as INode['parameters'],
		...extra,
		credentials: { ...SIM_ACCOUNT, ...extra.credentials },
	};
}

/** Nodes that each start on their own (triggers), connected to nothing. */
export const standalone = (...nodes: WorkflowNode[]): WorkflowJson => ({ nodes, connections: {} });

/** A trigger and the node its items go to. */
export const triggerThen = (trigger: WorkflowNode, next: WorkflowNode): WorkflowJson => ({
	nodes: [trigger, next],
	connections: { [trigger.name]: { main: [[{ node: next.name, type: 'main', index: 0 }]] } },
});

export const MANUAL = 'When clicking "Execute workflow"';
export const ROWS = 'Rows';
export const SERVICE = 'Voice Chat Assistant';

export interface ActionWorkflowOptions {
	/** JSON rows emitted by an "Items" node between the trigger and the action node. */
	rows?: IDataObject[];
	/** Files of the rows (by binary property), stored through n8n's binary data service. */
	files?: Array<Record<string, ItemFile>>;
	/** Node settings (`onError`, `retryOnFail`...) of the action node. */
	node?: Partial<INode>;
	/** The credential reference on the node (n8n's id and name of the saved credential). */
	credentialId?: string;
}

/** Manual Trigger → (Rows →) Voice Chat Assistant with the given parameters. */
export function actionWorkflow(
	parameters: IDataObject,
	options: ActionWorkflowOptions = {},
): WorkflowJson {
	const nodes: WorkflowJson['nodes'] = [
		{ name: MANUAL, type: TYPES.manualTrigger, parameters: {} },
	];
	const connections: WorkflowJson['connections'] = {};
	let previous = MANUAL;
	if (options.rows) {
		nodes.push({
			name: ROWS,
			type: TYPES.items,
			parameters: {
				items: JSON.stringify(options.rows),
				files: JSON.stringify(options.files ?? []),
			},
		});
		connections[MANUAL] = { main: [[{ node: ROWS, type: 'main', index: 0 }]] };
		previous = ROWS;
	}
	nodes.push({
		name: SERVICE,
		type: TYPES.action,
		parameters: parameters as INode['parameters'],
		credentials: {
			voiceChatAssistantApi: {
				id: options.credentialId ?? 'credential-1',
				name: 'Simulator account',
			},
		},
		...options.node,
	});
	connections[previous] = { main: [[{ node: SERVICE, type: 'main', index: 0 }]] };
	return { nodes, connections };
}

/**
 * Runs actionWorkflow(parameters, options) once against the simulator (its node errors are in the
 * result); `credentials` changes fields of the simulator's credential data.
 */
export async function runAction(
	sim: Simulator,
	parameters: IDataObject,
	options: ActionWorkflowOptions = {},
	credentials: IDataObject = {},
): Promise<WorkflowResult> {
	return await runWorkflow(actionWorkflow(parameters, options), {
		credentials: simCredentials(sim, credentials),
	});
}

/** A resource locator value in "By ID" mode. */
export const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

/** Lead → Create in campaign 1, the phone number from each row. */
export const LEAD_CREATE = {
	resource: 'lead',
	operation: 'create',
	campaignId: byId(1),
	phoneNumber: '={{ $json.phone }}',
};

/** Lead → Create of the import workflows: campaign 1, phone and name from each row, 5 requests in flight. */
export const LEAD_IMPORT_PARAMETERS = {
	...LEAD_CREATE,
	variables: { values: [{ key: 'customer_name', value: '={{ $json.name }}' }] },
	requestsInFlight: 5,
};

/** Document → Create in knowledgebase 1 from each row's file `data`, its type told by the file. */
export const DOCUMENT_UPLOAD = {
	resource: 'document',
	operation: 'create',
	knowledgebaseId: byId(1),
	type: 'auto',
	binaryPropertyName: 'data',
};

/** A text file of a row (ActionWorkflowOptions.files). */
export const textFile = (text: string, fileName: string): ItemFile => ({
	text,
	fileName,
	mimeType: 'text/plain',
});

/** A file a request uploaded (the multipart field `file`), as the simulator logs it. */
export const loggedUpload = (filename: string, contentType: string, data: string | Buffer) => ({
	field: 'file',
	filename,
	contentType,
	size: Buffer.byteLength(data),
	sha256: createHash('sha256').update(data).digest('hex'),
});

/** The name of the polling trigger in callEndedPollingWorkflow(). */
export const CALL_ENDED_TRIGGER = 'Call Ended';

/** A polling trigger alone: Call Ended for the outbound calls of the simulator's assistant 2. */
export function callEndedPollingWorkflow(): WorkflowJson {
	return standalone(
		serviceNode(CALL_ENDED_TRIGGER, TYPES.pollingTrigger, {
			event: 'callEnded',
			assistantId: byId(2),
			callFilters: { type: 'outbound' },
		}),
	);
}

/** The names of the polling triggers in leadAndCampaignWorkflow(). */
export const LEAD_EVENTS = 'Lead Status Changed';
export const CAMPAIGN_EVENTS = 'Campaign Status Changed';

/**
 * Two polling triggers: Lead Status Changed for a campaign's leads, and Campaign Status Changed
 * for that campaign (`campaignParameters` change that trigger's parameters).
 */
export function leadAndCampaignWorkflow(
	campaignId: number,
	campaignParameters: IDataObject = {},
): WorkflowJson {
	return standalone(
		serviceNode(LEAD_EVENTS, TYPES.pollingTrigger, {
			event: 'leadStatusChanged',
			campaignId: byId(campaignId),
		}),
		serviceNode(CAMPAIGN_EVENTS, TYPES.pollingTrigger, {
			event: 'campaignStatusChanged',
			campaignId: byId(campaignId),
			...campaignParameters,
		}),
	);
}
