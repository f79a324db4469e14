/**
 * Stand-ins for n8n's IHookFunctions (webhookMethods: checkExists, create,
 * delete) and IWebhookFunctions (webhook()) in unit tests, built on the parts
 * of context.ts: HTTP is real (`httpRequestWithAuthentication` adds the Bearer
 * header and sends through n8n's own request conversion), so `nock` sees what
 * n8n would send. The static data object is shared when passed in, like n8n
 * keeps it with the workflow between activations and restarts.
 */
import type {
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
// from its module: n8n-core's index loads all of n8n-core (~1 s a test file)
import { returnJsonArray } from 'n8n-core/dist/execution-engine/node-execution-context/utils/return-json-array';

import { VoiceChatAssistantTrigger } from '../../nodes/VoiceChatAssistantTrigger/VoiceChatAssistantTrigger.node';

import {
	bufferOf,
	credentialsGetter,
	httpHelpers,
	readParameter,
	testCredentials,
} from './context';
import type { TestCredentials } from './context';

export const PRODUCTION_URL = 'https://n8n.example.com/webhook/3f9c2a10-webhook-id/webhook';
export const TEST_URL = 'https://n8n.example.com/webhook-test/3f9c2a10-webhook-id/webhook';

export interface HookContextOptions {
	/** Node parameters; dotted names ("options.x") are resolved. Missing ones fall back like n8n's defaults would. */
	parameters: IDataObject;
	/** What getNodeWebhookUrl('default') returns (production URL by default). */
	webhookUrl?: string;
	/** The node's static data; pass the same object again to simulate a restart. */
	staticData?: IDataObject;
	credentials?: Partial<TestCredentials>;
	mode?: 'trigger' | 'manual' | 'webhook';
	/** What getActivationMode() returns in a hook (n8n: activate, update, init, ...); activate by default. */
	activationMode?: 'activate' | 'update' | 'init' | 'create' | 'leadershipChange';
	node?: Partial<INode>;
	/** Id of the workflow (default wf-1). */
	workflowId?: string;
	/**
	 * Other credentials of the node by type (e.g. the WhatsApp signing secret): each is set on the
	 * node (`node.credentials`) and handed out by getCredentials, as n8n does for a chosen credential.
	 */
	otherCredentials?: Record<string, IDataObject>;
}

export interface WebhookRequestOptions extends HookContextOptions {
	body?: unknown;
	rawBody?: Buffer;
	query?: IDataObject;
	headers?: IDataObject;
}

export interface LogEntry {
	level: 'debug' | 'info' | 'warn' | 'error';
	message: string;
}

/** What the node wrote to the HTTP response of the service's call. */
export interface FakeResponse {
	statusCode?: number;
	body?: unknown;
	ended: boolean;
	status(code: number): FakeResponse;
	json(body: unknown): FakeResponse;
	send(body?: unknown): FakeResponse;
	end(): FakeResponse;
}

/** A resource locator value as n8n stores it. */
export function locator(value: string | number, mode: 'list' | 'id' = 'list'): IDataObject {
	return { __rl: true, mode, value: String(value) };
}

/**
 * getCredentials: the API credential as context.ts gives it; another type only when the node has
 * it chosen (n8n refuses otherwise: "Node does not have any credentials set for ...").
 */
function otherCredentialsGetter(
	node: INode,
	others: Record<string, IDataObject> | undefined,
	credentials: TestCredentials,
) {
	const api = credentialsGetter(credentials);
	return async (type: string) => {
		if (type === 'voiceChatAssistantApi') return await api(type);
		if (!node.credentials?.[type] || !others?.[type])
			throw new Error(`Node does not have any credentials set for "${type}"`);
		return { ...others[type] };
	};
}

function base(options: HookContextOptions) {
	const credentials = testCredentials(options.credentials);
	const node: INode = {
		id: 'trigger-1',
		name: 'Voice Chat Assistant Trigger',
		type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: {
			voiceChatAssistantApi: { id: 'cred-1', name: 'Test account' },
			...Object.fromEntries(
				Object.keys(options.otherCredentials ?? {}).map((type, i) => [
					type,
					{ id: `cred-${i + 2}`, name: `Test ${type}` },
				]),
			),
		},
		webhookId: '3f9c2a10-webhook-id',
		...options.node,
	};
	const staticData: IDataObject = options.staticData ?? {};
	const sent: IHttpRequestOptions[] = [];
	const logs: LogEntry[] = [];
	const log = (level: LogEntry['level']) => (message: string) => {
		logs.push({ level, message });
	};

	const getNodeParameter = (name: string, fallback?: unknown, opts?: { extractValue?: boolean }) =>
		readParameter(node, options.parameters, name, fallback, opts);

	const helpers = {
		// the unauthenticated httpRequest: the trigger's probes of other triggers' URLs
		...httpHelpers(credentials, sent),
		async prepareBinaryData(
			data: Buffer | AsyncIterable<unknown>,
			fileName?: string,
			mimeType?: string,
		) {
			const buffer = await bufferOf(data);
			return {
				data: buffer.toString('base64'),
				fileName,
				mimeType: mimeType ?? 'application/octet-stream',
			};
		},
		returnJsonArray,
	};

	const context = {
		getNode: () => node,
		getNodeParameter,
		getCredentials: otherCredentialsGetter(node, options.otherCredentials, credentials),
		getWorkflowStaticData: (type: string) => {
			if (type !== 'node') throw new Error(`unexpected static data type ${type}`);
			return staticData;
		},
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => options.activationMode ?? 'activate',
		getWebhookName: () => 'default',
		getWorkflow: () => ({ id: options.workflowId ?? 'wf-1', name: 'Test', active: true }),
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
		helpers,
	};
	return { context, node, staticData, sent, logs };
}

/** A fake IHookFunctions for webhookMethods.default.checkExists / create / delete. */
export function createHookContext(options: HookContextOptions) {
	const { context, node, staticData, sent, logs } = base(options);
	const hook = {
		...context,
		getNodeWebhookUrl: (name: string) =>
			name === 'default' ? (options.webhookUrl ?? PRODUCTION_URL) : undefined,
		getWebhookDescription: () => undefined,
	};
	return { context: hook as unknown as IHookFunctions, node, staticData, sent, logs };
}

/**
 * What n8n does with webhook()'s result when the node wrote no answer of its own: in "Immediately"
 * (the default Response Mode) it answers with the result's `webhookResponse` once the run is
 * created (n8n 2.x; 1.x before). The body n8n sends, or undefined when n8n sends none now.
 */
export function n8nAnswerBody(result: IWebhookResponseData, responseMode = 'onReceived'): unknown {
	if (result.noWebhookResponse || !result.workflowData || responseMode !== 'onReceived')
		return undefined;
	return result.webhookResponse ?? { message: 'Workflow was started' };
}

/** The response, answered as n8n answers (n8nAnswerBody) unless the node answered already. */
export function answerAsN8n(
	result: IWebhookResponseData,
	response: FakeResponse,
	responseMode = 'onReceived',
): FakeResponse {
	const body = n8nAnswerBody(result, responseMode);
	if (!response.ended && body !== undefined) response.status(200).json(body);
	return response;
}

/** A fake IWebhookFunctions for webhook(), with a response object that records what the node wrote. */
export function createWebhookContext(options: WebhookRequestOptions) {
	const { context, node, staticData, sent, logs } = base(options);
	const response: FakeResponse = {
		ended: false,
		status(code: number) {
			this.statusCode = code;
			return this;
		},
		json(body: unknown) {
			this.statusCode ??= 200;
			this.body = body;
			this.ended = true;
			return this;
		},
		send(body?: unknown) {
			this.statusCode ??= 200;
			this.body = body;
			this.ended = true;
			return this;
		},
		end() {
			this.ended = true;
			return this;
		},
	};
	const request = {
		method: 'POST',
		body: options.body,
		rawBody: options.rawBody,
		query: options.query ?? {},
		headers: options.headers ?? { 'content-type': 'application/json' },
	};
	const webhook = {
		...context,
		getMode: () => options.mode ?? 'webhook',
		getNodeWebhookUrl: (name: string) =>
			name === 'default' ? (options.webhookUrl ?? PRODUCTION_URL) : undefined,
		getBodyData: () => request.body,
		getQueryData: () => request.query,
		getHeaderData: () => request.headers,
		getParamsData: () => ({}),
		getRequestObject: () => request,
		getResponseObject: () => response,
	};
	return {
		context: webhook as unknown as IWebhookFunctions,
		node,
		staticData,
		sent,
		logs,
		response,
	};
}

/** The items of the first output of a webhook() result. */
export function firstOutput(workflowData: INodeExecutionData[][] | undefined): IDataObject[] {
	return (workflowData?.[0] ?? []).map((item) => item.json);
}

const triggerHooks = new VoiceChatAssistantTrigger().webhookMethods.default;

/** What n8n does when it activates a workflow (and at every start): checkExists, then create if needed. */
export async function activate(ctx: IHookFunctions): Promise<'created' | 'existed'> {
	if (await triggerHooks.checkExists.call(ctx)) return 'existed';
	await triggerHooks.create.call(ctx);
	return 'created';
}

/** The requests as lines: method, path (or the probed URL) and body. */
export function requestLines(sent: IHttpRequestOptions[]): string[] {
	return sent.map((r) => {
		if (r.headers?.['x-voice-chat-assistant-probe']) return `PROBE ${r.url}`;
		const qs = r.qs ? ` page=${(r.qs as IDataObject).page}` : '';
		const body = r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`;
		return `${r.method} ${r.url}${qs}${body}`;
	});
}
