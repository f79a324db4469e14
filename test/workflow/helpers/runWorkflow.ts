/**
 * Runs a real n8n workflow in-process with n8n-core's WorkflowExecute: the
 * same engine that executes workflows in n8n, with our node types loaded from
 * source, a credentials helper that applies the credential's own
 * `authenticate` definition, and real HTTP (against the simulator).
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
	INodeTypeData,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowParameters,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { VoiceChatAssistantApi } from '../../../credentials/VoiceChatAssistantApi.credentials';
import { VoiceChatAssistant } from '../../../nodes/VoiceChatAssistant/VoiceChatAssistant.node';

/** n8n's Manual Trigger, as far as a run needs it. */
class ManualTrigger implements INodeType {
	description = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

/** Emits the JSON items of its `items` parameter (a stand-in for a spreadsheet or CSV source). */
class Items implements INodeType {
	description = {
		displayName: 'Items',
		name: 'items',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	} as unknown as INodeType['description'];

	async execute(this: import('n8n-workflow').IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const list = typeof raw === 'string' ? (JSON.parse(raw) as IDataObject[]) : raw;
		return [list.map((json) => ({ json }))];
	}
}

const nodeTypeData: INodeTypeData = {
	'n8n-nodes-base.manualTrigger': { type: new ManualTrigger(), sourcePath: '' },
	'test.items': { type: new Items(), sourcePath: '' },
	'n8n-nodes-voice-chat-assistant.voiceChatAssistant': { type: new VoiceChatAssistant(), sourcePath: '' },
};

const nodeTypes: INodeTypes = {
	getByName: (type: string) => nodeTypeData[type].type,
	getByNameAndVersion: (type: string) => {
		const found = nodeTypeData[type]?.type as INodeType | IVersionedNodeType | undefined;
		if (!found) throw new Error(`unknown node type ${type}`);
		return found as INodeType;
	},
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

const credentialType = new VoiceChatAssistantApi();

function credentialsHelper(credentials: ICredentialDataDecryptedObject) {
	return {
		getParentTypes: () => [],
		isCredentialUsableByNode: () => true,
		async authenticate(_creds: ICredentialDataDecryptedObject, _type: string, request: IHttpRequestOptions) {
			// the credential's generic definition: Authorization: Bearer {{$credentials.apiKey}}
			const headers = credentialType.authenticate.properties.headers as IDataObject;
			expect(headers.Authorization).toBe('=Bearer {{$credentials.apiKey}}');
			return { ...request, headers: { ...(request.headers ?? {}), Authorization: `Bearer ${credentials.apiKey}` } };
		},
		async preAuthentication() {
			return undefined;
		},
		async getCredentials() {
			return credentials;
		},
		async getDecrypted() {
			return credentials;
		},
		async updateCredentials() {},
		async updateCredentialsOauthTokenData() {},
		getCredentialsProperties: () => credentialType.properties,
	};
}

export interface WorkflowRun {
	run: IRun;
	outputOf(nodeName: string): INodeExecutionData[];
	errorOf(nodeName: string): Error | undefined;
}

export async function runWorkflow(
	workflow: Pick<WorkflowParameters, 'nodes' | 'connections'>,
	credentials: ICredentialDataDecryptedObject,
): Promise<WorkflowRun> {
	const instance = new Workflow({
		id: 'workflow-test',
		name: 'workflow test',
		nodes: workflow.nodes,
		connections: workflow.connections,
		active: false,
		nodeTypes,
		settings: {},
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'execution-test', {
		id: 'workflow-test',
		name: 'workflow test',
		nodes: workflow.nodes,
		connections: workflow.connections,
		active: false,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const additionalData = {
		credentialsHelper: credentialsHelper(credentials),
		hooks,
		executionId: 'execution-test',
		restApiUrl: 'http://localhost/rest',
		instanceBaseUrl: 'http://localhost/',
		webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost/webhook-test',
		formWaitingBaseUrl: 'http://localhost/form-waiting',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'user-test',
		variables: {},
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		startRunnerTask: async () => {
			throw new Error('no task runner in workflow tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;

	const start = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const run = await new WorkflowExecute(additionalData, 'manual').run({ workflow: instance, startNode: start } as never);
	const runData = run.data.resultData.runData;
	return {
		run,
		outputOf: (name) => runData[name]?.[0]?.data?.main?.[0] ?? [],
		errorOf: (name) => runData[name]?.[0]?.error as Error | undefined,
	};
}
