/** The shapes runWorkflow.ts and TestWorkflow take and give (re-exported by runWorkflow.ts). */
import type {
	ExecutionBaseError,
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	IWorkflowBase,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

/** A workflow as n8n exports it (only what a run needs). */
export interface WorkflowJson {
	nodes: Array<Partial<INode> & Pick<INode, 'name' | 'type' | 'parameters'>>;
	connections: IConnections;
	settings?: IWorkflowBase['settings'];
	/** The workflow's static data (the trigger keeps its registration there). */
	staticData?: IDataObject;
}

export interface WorkflowOptions {
	/** Data of the `voiceChatAssistantApi` credential; fields left out get the credential's defaults. */
	credentials: ICredentialDataDecryptedObject;
	/** Data of the package's other credentials by type (e.g. the WhatsApp signing secret). */
	otherCredentials?: Record<string, ICredentialDataDecryptedObject>;
	/**
	 * Static data saved as n8n 2.x saves it: each webhook request and each hook
	 * works on its own copy loaded from the saved one, and that copy replaces
	 * the saved one when the request changed it (after webhook() returns, the
	 * later save winning; after a hook). `saved` is then what n8n's database holds.
	 */
	savesLikeN8n?: boolean;
	/**
	 * Why n8n activated the workflow, for its poll contexts: `activate` (default, a user turned it
	 * on), `init` (n8n started with the workflow active: a restart), `update` (a new version published).
	 */
	activation?: WorkflowActivateMode;
}

export interface RunOptions {
	/**
	 * What the start node outputs, pinned as n8n pins test data on a node: plain
	 * objects become `{ json }` items. Default: the start node runs and emits
	 * its own items (the Manual Trigger: one empty item).
	 */
	inputItems?: Array<INodeExecutionData | IDataObject>;
	/** Node to start from (default: the Manual Trigger, else the first trigger node). */
	startNode?: string;
	/** Items placed on the start node's input (what a webhook trigger produced). */
	startData?: INodeExecutionData[][];
	/** Default `manual`. */
	mode?: WorkflowExecuteMode;
}

export interface WorkflowResult {
	run: IRun;
	resultData: IRun['data']['resultData'];
	status: IRun['status'];
	/** Items of one output (default the first) of a node's first run; [] when it did not run or failed. */
	outputOf(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/**
	 * The error a node failed with, as n8n keeps it in the run data: a plain
	 * copy of the error (its own fields plus message and stack), not the instance.
	 */
	errorOf(nodeName: string): ExecutionBaseError | undefined;
	/** The error the run stopped with, if any. */
	error?: ExecutionBaseError;
	/** Nodes in the order they finished. */
	executionOrder: string[];
}

export interface Delivery {
	method: string;
	path: string;
	query: IDataObject;
	body: unknown;
	statusCode: number;
	response: unknown;
	/** The workflow run the delivery started, if it started one. */
	result?: WorkflowResult;
}
