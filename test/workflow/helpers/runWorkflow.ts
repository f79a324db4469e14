/**
 * Runs real n8n workflows in-process with n8n-core's `WorkflowExecute`, the
 * engine n8n itself executes workflows with: parameters get their defaults
 * and expressions are resolved by n8n-workflow, our nodes get n8n-core's real
 * node contexts (`httpRequestWithAuthentication`, `continueOnFail`, binary
 * helpers, paired items), and HTTP goes out for real (to the simulator).
 *
 *   const { outputOf, error } = await runWorkflow({ nodes, connections }, { credentials: { apiKey, baseUrl } });
 *
 * For triggers, `TestWorkflow` also runs the node's webhook methods
 * (checkExists/create/delete) in n8n-core's HookContext and serves its webhook
 * on a local HTTP server, answering through n8n-core's WebhookContext and
 * running the workflow from the trigger's items (see `listen`).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	ExecutionLifecycleHooks,
	HookContext,
	PollContext,
	TriggerContext,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IPinData,
	IRunExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, deepCopy, Workflow } from 'n8n-workflow';

import { noteHeartbeat } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpState';
import { beat } from '../../../nodes/VoiceChatAssistantTrigger/calls/heartbeat';
import { n8nAnswerBody } from '../../helpers/hookContext';
import { TestCredentialsHelper } from './credentialsHelper';
import { expressLikeResponse } from './expressResponse';
import { setupN8nCore } from './n8nCore';
import { nodeTypes, TYPES } from './nodeTypes';
import type {
	Delivery,
	RunOptions,
	WorkflowJson,
	WorkflowOptions,
	WorkflowResult,
} from './workflowTypes';

export { TYPES } from './nodeTypes';
export type { RunOptions, WorkflowJson, WorkflowOptions, WorkflowResult } from './workflowTypes';
export { serializeDeep } from './serializeDeep';
export type { ItemFile } from './nodeTypes';

const WORKFLOW_ID = 'workflow-test';

let executionCounter = 0;

/** Runs a workflow once and returns its result (it never throws for a node error: see `error`). */
export async function runWorkflow(
	workflow: WorkflowJson,
	options: WorkflowOptions & RunOptions,
): Promise<WorkflowResult> {
	return await new TestWorkflow(workflow, options).run(options);
}

export class TestWorkflow {
	readonly workflow: Workflow;

	readonly credentialsHelper: TestCredentialsHelper;

	/** Webhook calls received by `listen`'s server, in arrival order. */
	readonly deliveries: Delivery[] = [];

	private readonly json: WorkflowJson;

	private server?: Server;

	private baseUrl = 'http://127.0.0.1:5678';

	private readonly pollContexts = new Map<string, PollContext>();

	private deliveryWaiters: Array<{ count: number; resolve: () => void }> = [];

	private readonly savesLikeN8n: boolean;

	private readonly activation: WorkflowActivateMode;

	/** With `savesLikeN8n`: the static data as n8n's database holds it, and how often it was saved. */
	saved: IDataObject = {};

	saves = 0;

	/** While true, the webhook server drops every connection unanswered (n8n stopped). */
	down = false;
	/** While true, the webhook URLs' query strings are dropped on their way in (a proxy that strips them). */
	stripQuery = false;

	constructor(json: WorkflowJson, options: WorkflowOptions) {
		// n8n-workflow writes parameter defaults into the nodes: work on a copy
		this.json = deepCopy(json);
		const nodes = this.json.nodes.map(
			(node, index): INode => ({
				id: node.id ?? `node-${index + 1}`,
				typeVersion: node.typeVersion ?? 1,
				position: node.position ?? [index * 200, 0],
				...node,
			}),
		);
		this.workflow = new Workflow({
			id: WORKFLOW_ID,
			name: 'Workflow test',
			nodes,
			connections: this.json.connections,
			active: false,
			nodeTypes,
			settings: this.json.settings ?? { executionOrder: 'v1' },
			staticData: this.json.staticData,
		});
		this.savesLikeN8n = options.savesLikeN8n === true;
		this.activation = options.activation ?? 'activate';
		this.saved = deepCopy(this.json.staticData ?? {});
		this.credentialsHelper = new TestCredentialsHelper({
			...options.otherCredentials,
			voiceChatAssistantApi: options.credentials,
		});
	}

	/** A request's own workflow with a copy of the saved static data (`savesLikeN8n`), else the workflow. */
	private loaded(): Workflow {
		if (!this.savesLikeN8n) return this.workflow;
		return new Workflow({
			id: WORKFLOW_ID,
			name: 'Workflow test',
			nodes: Object.values(this.workflow.nodes),
			connections: this.workflow.connectionsBySourceNode,
			active: false,
			nodeTypes,
			settings: this.workflow.settings,
			staticData: deepCopy(this.saved),
		});
	}

	/** n8n's saveStaticData: the whole copy, when the request changed it. */
	private save(workflow: Workflow) {
		if (!this.savesLikeN8n || workflow.staticData.__dataChanged !== true) return;
		this.saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		this.saves++;
	}

	/** The workflow's static data, as n8n would save it. */
	get staticData(): IDataObject {
		return this.workflow.staticData;
	}

	node(name: string): INode {
		const node = this.workflow.getNode(name);
		if (!node) throw new Error(`No node "${name}" in the test workflow`);
		return node;
	}

	private additionalData(
		executionId: string,
		mode: WorkflowExecuteMode,
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	) {
		const workflowData: IWorkflowBase = {
			id: WORKFLOW_ID,
			name: 'Workflow test',
			active: false,
			activeVersionId: null,
			isArchived: false,
			nodes: Object.values(this.workflow.nodes),
			connections: this.workflow.connectionsBySourceNode,
			settings: this.workflow.settings,
			createdAt: new Date(),
			updatedAt: new Date(),
		};
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
		const data = {
			credentialsHelper: this.credentialsHelper,
			hooks,
			executionId,
			currentNodeExecutionIndex: 0,
			restApiUrl: `${this.baseUrl}/rest`,
			instanceBaseUrl: `${this.baseUrl}/`,
			formBaseUrl: `${this.baseUrl}/form`,
			formTestBaseUrl: `${this.baseUrl}/form-test`,
			formWaitingBaseUrl: `${this.baseUrl}/form-waiting`,
			webhookBaseUrl: `${this.baseUrl}/webhook`,
			webhookTestBaseUrl: `${this.baseUrl}/webhook-test`,
			webhookWaitingBaseUrl: `${this.baseUrl}/webhook-waiting`,
			mcpBaseUrl: `${this.baseUrl}/mcp`,
			mcpTestBaseUrl: `${this.baseUrl}/mcp-test`,
			variables: {},
			userId: 'user-test',
			workflowId: WORKFLOW_ID,
			logAiEvent: () => {},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			executeWorkflow: async () => {
				throw new Error('Sub-workflows are not available in workflow tests');
			},
			startRunnerTask: async () => {
				throw new Error('No task runner in workflow tests');
			},
			...extra,
		};
		return { additionalData: data as unknown as IWorkflowExecuteAdditionalData, hooks };
	}

	private defaultStartNode(): INode {
		const nodes = Object.values(this.workflow.nodes);
		const start =
			nodes.find((n) => n.type === TYPES.manualTrigger) ??
			nodes.find((n) => n.type === TYPES.trigger) ??
			this.workflow.getStartNode();
		if (!start) throw new Error('The test workflow has no node to start from');
		return start;
	}

	/** Runs the workflow once, in-process, and collects what every node produced. */
	async run(
		options: RunOptions = {},
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): Promise<WorkflowResult> {
		await setupN8nCore();
		const mode = options.mode ?? 'manual';
		const executionId = `execution-${++executionCounter}`;
		const { additionalData, hooks } = this.additionalData(executionId, mode, extra);
		const executionOrder: string[] = [];
		hooks.addHandler('nodeExecuteAfter', (nodeName) => {
			executionOrder.push(nodeName);
		});

		const startNode = options.startNode ? this.node(options.startNode) : this.defaultStartNode();
		let pinData: IPinData | undefined;
		if (options.inputItems) {
			pinData = {
				[startNode.name]: options.inputItems.map((item) =>
					'json' in item && typeof item.json === 'object'
						? (item as INodeExecutionData)
						: { json: item as IDataObject },
				),
			};
		}
		const runExecutionData: IRunExecutionData = createRunExecutionData({
			resultData: { runData: {}, pinData },
			executionData: {
				nodeExecutionStack: [
					{ node: startNode, data: { main: options.startData ?? [[{ json: {} }]] }, source: null },
				],
			},
		});
		const run = await new WorkflowExecute(
			additionalData,
			mode,
			runExecutionData,
		).processRunExecutionData(this.workflow);

		const runData = run.data.resultData.runData;
		return {
			run,
			resultData: run.data.resultData,
			status: run.status,
			outputOf: (name, outputIndex = 0) => runData[name]?.[0]?.data?.main?.[outputIndex] ?? [],
			errorOf: (name) => runData[name]?.[0]?.error,
			error: run.data.resultData.error,
			executionOrder,
		};
	}

	private webhookData(
		node: INode,
		mode: WorkflowExecuteMode,
		additionalData: IWorkflowExecuteAdditionalData,
		isTest: boolean,
	): IWebhookData {
		const description = nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description
			.webhooks?.[0];
		if (!description) throw new Error(`Node "${node.name}" has no webhook`);
		return {
			httpMethod: 'POST',
			node: node.name,
			path: String(description.path),
			webhookDescription: description as IWebhookDescription,
			workflowId: WORKFLOW_ID,
			workflowExecuteAdditionalData: additionalData,
			isTest,
		} as IWebhookData;
	}

	/**
	 * Runs one of a trigger's webhook methods as n8n does when it activates or
	 * deactivates a workflow (`trigger` mode), or listens for a test event
	 * (`manual` mode, test webhook URL).
	 */
	async hook(
		nodeName: string,
		method: 'checkExists' | 'create' | 'delete',
		options: { test?: boolean; activation?: WorkflowActivateMode } = {},
	): Promise<boolean | undefined> {
		await setupN8nCore();
		const node = this.node(nodeName);
		const isTest = options.test === true;
		const mode: WorkflowExecuteMode = isTest ? 'manual' : 'trigger';
		const { additionalData } = this.additionalData(`hook-${++executionCounter}`, mode);
		const workflow = this.loaded();
		const context = new HookContext(
			workflow,
			node,
			additionalData,
			mode,
			options.activation ?? (isTest ? 'manual' : 'activate'),
			this.webhookData(node, mode, additionalData, isTest),
		);
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const fn = nodeType.webhookMethods?.default?.[method];
		if (!fn) throw new Error(`Node "${nodeName}" has no webhook method ${method}`);
		const result = await fn.call(context);
		this.save(workflow);
		return result;
	}

	/**
	 * One poll of a polling trigger as n8n's poll executor runs it: the node's
	 * `poll()` in n8n-core's PollContext (`trigger` mode), with the workflow's
	 * static data, one context for every poll of the node (n8n creates it once
	 * per activation). Resolves to what the poll emits (null for nothing); a
	 * poll that throws rejects. With `manual`, the editor's "Fetch Test Event"
	 * instead (`manual` mode, a context of its own, nothing remembered).
	 */
	async poll(nodeName: string, manual = false): Promise<INodeExecutionData[][] | null> {
		await setupN8nCore();
		const node = this.node(nodeName);
		let context = manual ? undefined : this.pollContexts.get(nodeName);
		if (manual) {
			const { additionalData } = this.additionalData(`poll-${++executionCounter}`, 'manual');
			context = new PollContext(this.workflow, node, additionalData, 'manual', 'manual');
		} else if (!context) {
			const { additionalData } = this.additionalData(`poll-${++executionCounter}`, 'trigger');
			context = new PollContext(this.workflow, node, additionalData, 'trigger', this.activation);
			this.pollContexts.set(nodeName, context);
		}
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		if (!nodeType.poll) throw new Error(`Node "${nodeName}" has no poll method`);
		return await nodeType.poll.call(context!);
	}

	/**
	 * One heartbeat round of the webhook trigger (calls/heartbeat.ts, the round its trigger() runs
	 * every few minutes) in n8n-core's TriggerContext (`trigger` mode, activation "init"): each
	 * `emit` is one execution, saved as n8n saves it (the static data after every emit). Resolves
	 * to the executions' items, one array per execution. The heartbeat counts as running from its
	 * first round on, as n8n's trigger() does between rounds (forgetProcess() stops it: a restart).
	 */
	async beat(nodeName: string): Promise<IDataObject[][]> {
		await setupN8nCore();
		const node = this.node(nodeName);
		const { additionalData } = this.additionalData(`beat-${++executionCounter}`, 'trigger');
		const workflow = this.loaded();
		const executions: IDataObject[][] = [];
		const context = new TriggerContext(
			workflow,
			node,
			additionalData,
			'trigger',
			'init',
			(data) => {
				executions.push(data[0].map((item) => item.json));
				this.save(workflow);
			},
		);
		// the trigger() that runs the rounds keeps running between them (until a restart forgets it):
		// meanwhile a delivery starts only its own call and leaves the missed ones to the rounds
		noteHeartbeat(context, true);
		await beat(context);
		this.save(workflow);
		return executions;
	}

	/** The URL n8n gives the trigger's webhook (production, or test with `test: true`). */
	webhookUrl(nodeName: string, test = false): string {
		const node = this.node(nodeName);
		const path = test ? 'webhook-test' : 'webhook';
		return `${this.baseUrl}/${path}/${node.webhookId ?? `${WORKFLOW_ID}/${encodeURIComponent(node.name.toLowerCase())}`}/webhook`;
	}

	/**
	 * Serves the workflow's trigger webhooks on 127.0.0.1 (random port) like
	 * n8n's webhook server: the request goes to the node's `webhook()` in
	 * n8n-core's WebhookContext; when it returns items, the workflow runs from
	 * the trigger with them. Call before `hook('create')`, which registers the
	 * URL built from this server's address.
	 */
	async listen(): Promise<string> {
		if (this.server) return this.baseUrl;
		this.server = createServer((req, res) => {
			this.handle(req, res).catch((error: Error) => {
				if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ message: error.message }));
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.baseUrl;
	}

	async close(): Promise<void> {
		if (!this.server) return;
		const server = this.server;
		this.server = undefined;
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	/** Resolves once `count` webhook calls have been answered (and their runs finished). */
	async waitForDeliveries(count: number, timeoutMs = 5000): Promise<Delivery[]> {
		if (this.deliveries.length < count) {
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(
					() =>
						reject(
							new Error(
								`${this.deliveries.length} of ${count} webhook calls arrived within ${timeoutMs} ms`,
							),
						),
					timeoutMs,
				);
				this.deliveryWaiters.push({
					count,
					resolve: () => {
						clearTimeout(timer);
						resolve();
					},
				});
			});
		}
		return this.deliveries.slice(0, count);
	}

	private async handle(req: IncomingMessage, res: ServerResponse) {
		if (this.down) {
			req.socket.destroy();
			return;
		}
		const url = new URL(req.url ?? '/', this.baseUrl);
		const [, kind, id] = url.pathname.split('/');
		const isTest = kind === 'webhook-test';
		const node = Object.values(this.workflow.nodes).find(
			(n) => n.type === TYPES.trigger && (n.webhookId === id || id === WORKFLOW_ID),
		);
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		const query: IDataObject = {};
		// a proxy in front of n8n that drops query strings (why a user turns Verify Secret off)
		if (this.stripQuery) url.search = '';
		for (const [key, value] of url.searchParams) {
			const previous = query[key];
			query[key] =
				previous === undefined ? value : ([] as string[]).concat(previous as string, value);
		}
		let body: unknown = {};
		if (/json/i.test(String(req.headers['content-type'])) && rawBody.length) {
			try {
				body = JSON.parse(rawBody.toString('utf8'));
			} catch {
				body = {};
			}
		}
		const delivery: Delivery = {
			method: req.method ?? 'GET',
			path: url.pathname,
			query,
			body,
			statusCode: 0,
			response: undefined,
		};

		const response = expressLikeResponse(res, delivery);
		if (!node || req.method !== 'POST' || (kind !== 'webhook' && kind !== 'webhook-test')) {
			response.status(404).json({ message: 'The requested webhook is not registered.' });
			this.delivered(delivery);
			return;
		}

		const mode: WorkflowExecuteMode = isTest ? 'manual' : 'webhook';
		const request = {
			method: req.method,
			url: req.url,
			headers: req.headers,
			query,
			params: {},
			body,
			rawBody,
		};
		const extra = {
			httpRequest: request as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
			httpResponse: response as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
		};
		const { additionalData } = this.additionalData(`webhook-${++executionCounter}`, mode, extra);
		const workflow = this.loaded();
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			mode,
			this.webhookData(node, mode, additionalData, isTest),
			[],
			null,
		);
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const answer = (await nodeType.webhook!.call(context)) as IWebhookResponseData;
		// n8n 2.x saves what webhook() wrote when the node answered before the run or starts none; a
		// run resets the change flag first, and what n8n answers after it saves nothing
		if (answer.noWebhookResponse || !answer.workflowData) this.save(workflow);
		// "Immediately" without an answer of the node's own: n8n 2.x answers once the run is created
		const n8nBody = n8nAnswerBody(
			answer,
			context.getNodeParameter('responseMode', 'onReceived') as string,
		);
		if (n8nBody !== undefined) response.status(200).json(n8nBody);

		if (answer.workflowData) {
			delivery.result = await this.run(
				{ startNode: node.name, startData: answer.workflowData, mode },
				extra,
			);
		}
		if (!answer.noWebhookResponse && !res.headersSent && delivery.result?.error) {
			// n8n's answer when the run failed before a response was sent (lastNode and responseNode modes)
			response.status(500).json({ message: 'Error in workflow' });
		} else if (!answer.noWebhookResponse && !res.headersSent) {
			// "When Last Node Finishes": the first item of the last node that ran
			const last = delivery.result?.resultData.lastNodeExecuted;
			const first = last ? delivery.result?.outputOf(last)[0]?.json : undefined;
			response.status(200).json(first ?? { message: 'Workflow was started' });
		}
		this.delivered(delivery);
	}

	private delivered(delivery: Delivery) {
		this.deliveries.push(delivery);
		this.deliveryWaiters = this.deliveryWaiters.filter((waiter) => {
			if (this.deliveries.length < waiter.count) return true;
			waiter.resolve();
			return false;
		});
	}
}
