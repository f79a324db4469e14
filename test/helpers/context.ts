/**
 * A stand-in for n8n's IExecuteFunctions / ILoadOptionsFunctions in unit
 * tests, and the parts the hook and webhook contexts (hookContext.ts) build on. HTTP is real: `httpRequestWithAuthentication`
 * applies the credential like n8n does (Bearer header) and sends the request
 * through n8n's own request conversion (`@n8n/backend-network`), so `nock`
 * sees exactly what n8n would send.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { Readable } from 'stream';

import { NodeOperationError, deepCopy } from 'n8n-workflow';
// n8n-core's own helpers, from their modules: the package's index loads all of n8n-core (~1 s a test file)
import { constructExecutionMetaData } from 'n8n-core/dist/execution-engine/node-execution-context/utils/construct-execution-metadata';
import { returnJsonArray } from 'n8n-core/dist/execution-engine/node-execution-context/utils/return-json-array';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { httpRequest } = require('@n8n/backend-network/testing');

export const TEST_BASE_URL = 'https://api.test.local';
export const TEST_API_KEY = 'test-key-SECRET-0123456789';

export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
	requestsPerMinute?: number;
	burst?: number;
}

export interface ContextOptions {
	/** Parameters: one object for all items, or one per item. Dotted names ("options.x") are resolved. */
	parameters: IDataObject | IDataObject[];
	items?: INodeExecutionData[];
	credentials?: Partial<TestCredentials>;
	continueOnFail?: boolean;
	/** Binary buffers by item index and property name. */
	binaryBuffers?: Record<number, Record<string, Buffer>>;
	/** Files in n8n's binary store, by binary data id (items refer to them with `binary.<prop>.id`). */
	storedBinaries?: Record<string, Buffer>;
	node?: Partial<INode>;
	/** Current node parameters for list search methods. */
	currentParameters?: IDataObject;
	staticData?: IDataObject;
}

export interface RequestRecord {
	method: string;
	url: string;
	headers: IDataObject;
}

function lookup(source: IDataObject, name: string): unknown {
	let current: unknown = source;
	for (const part of name.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[part];
	}
	return current;
}

/** The value of a resource locator (`{__rl, value}`), anything else as it is. */
function extract(value: unknown): unknown {
	if (value && typeof value === 'object' && (value as IDataObject).__rl === true) {
		return (value as IDataObject).value;
	}
	return value;
}

/**
 * A parameter as n8n's getNodeParameter reads it: dotted names resolved, the
 * fallback for a missing one (else an error), a resource locator's value with
 * `extractValue`, a copy otherwise.
 */
export function readParameter(
	node: INode,
	source: IDataObject,
	name: string,
	fallback?: unknown,
	opts?: { extractValue?: boolean },
): unknown {
	const value = lookup(source, name);
	if (value === undefined) {
		if (fallback !== undefined) return fallback;
		throw new NodeOperationError(node, `Could not get parameter "${name}"`);
	}
	return opts?.extractValue ? extract(value) : deepCopy(value);
}

/** The credential of the tests: the test key and base URL unless given. */
export function testCredentials(given?: Partial<TestCredentials>): TestCredentials {
	return { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL, ...given };
}

/**
 * n8n's HTTP helpers, sending for real through n8n's own request conversion;
 * every request is recorded in `sent`. The authenticated one adds the Bearer
 * header as the credential's `authenticate` does.
 */
export function httpHelpers(credentials: TestCredentials, sent: IHttpRequestOptions[]) {
	return {
		async httpRequestWithAuthentication(credentialType: string, request: IHttpRequestOptions) {
			if (credentialType !== 'voiceChatAssistantApi')
				throw new Error(`unexpected credential ${credentialType}`);
			const withAuth: IHttpRequestOptions = {
				...request,
				headers: { ...(request.headers ?? {}), Authorization: `Bearer ${credentials.apiKey}` },
			};
			sent.push(withAuth);
			return await httpRequest(withAuth);
		},
		/** Without the credential: records the request (so tests can see no key went along). */
		async httpRequest(request: IHttpRequestOptions) {
			sent.push(request);
			return await httpRequest(request);
		},
	};
}

/** getCredentials of a test context: the credential of the node, any other type refused. */
export function credentialsGetter(credentials: TestCredentials) {
	return async (type: string) => {
		if (type !== 'voiceChatAssistantApi') throw new Error(`unexpected credential ${type}`);
		return { ...credentials };
	};
}

export function createContext(options: ContextOptions) {
	const items: INodeExecutionData[] = options.items ?? [{ json: {} }];
	const credentials = testCredentials(options.credentials);
	const node: INode = {
		id: 'node-1',
		name: 'Voice Chat Assistant',
		type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistant',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { voiceChatAssistantApi: { id: 'cred-1', name: 'Test account' } },
		...options.node,
	};
	const staticData: IDataObject = options.staticData ?? {};
	const sent: IHttpRequestOptions[] = [];
	const binaryCalls: string[] = [];

	const paramsFor = (itemIndex: number): IDataObject =>
		Array.isArray(options.parameters)
			? (options.parameters[itemIndex] ?? options.parameters[0])
			: options.parameters;

	const getNodeParameter = (
		name: string,
		itemIndex = 0,
		fallback?: unknown,
		opts?: { extractValue?: boolean },
	) => readParameter(node, paramsFor(itemIndex), name, fallback, opts);

	const helpers = {
		...httpHelpers(credentials, sent),
		constructExecutionMetaData,
		returnJsonArray,
		async prepareBinaryData(
			data: Buffer | AsyncIterable<unknown>,
			fileName?: string,
			mimeType?: string,
		): Promise<IBinaryData> {
			const buffer = await bufferOf(data);
			return {
				data: buffer.toString('base64'),
				fileName,
				mimeType: mimeType ?? 'application/octet-stream',
				fileSize: String(buffer.length),
			} as IBinaryData;
		},
		assertBinaryData(itemIndex: number, propertyName: string): IBinaryData {
			const binary = items[itemIndex]?.binary?.[propertyName];
			if (!binary) {
				throw new NodeOperationError(
					node,
					`This operation expects the node's input data to contain a binary file '${propertyName}', but none was found [item ${itemIndex}]`,
					{ itemIndex },
				);
			}
			return binary;
		},
		async getBinaryDataBuffer(itemIndex: number, propertyName: string): Promise<Buffer> {
			binaryCalls.push(`buffer ${itemIndex} ${propertyName}`);
			const fromOptions = options.binaryBuffers?.[itemIndex]?.[propertyName];
			if (fromOptions) return fromOptions;
			const binary = items[itemIndex]?.binary?.[propertyName];
			if (!binary) throw new Error(`no binary ${propertyName}`);
			return Buffer.from(binary.data, 'base64');
		},
		async getBinaryMetadata(binaryDataId: string) {
			const stored = options.storedBinaries?.[binaryDataId];
			return stored ? { fileSize: stored.length } : {};
		},
		/** Streams a stored file in 64 KiB chunks; `binaryCalls` records every open and every buffer read. */
		async getBinaryStream(binaryDataId: string) {
			const stored = options.storedBinaries?.[binaryDataId];
			if (!stored) throw new Error(`no stored binary ${binaryDataId}`);
			binaryCalls.push(`stream ${binaryDataId}`);
			const chunks: Buffer[] = [];
			for (let at = 0; at < stored.length; at += 64 * 1024)
				chunks.push(Buffer.from(stored.subarray(at, at + 64 * 1024)));
			return Readable.from(chunks);
		},
	};

	const context = {
		getNode: () => node,
		getInputData: () => items,
		getNodeParameter,
		getCurrentNodeParameter: (name: string, opts?: { extractValue?: boolean }) => {
			const value = lookup(options.currentParameters ?? paramsFor(0), name);
			return opts?.extractValue ? extract(value) : value;
		},
		getCurrentNodeParameters: () => options.currentParameters ?? paramsFor(0),
		getCredentials: credentialsGetter(credentials),
		continueOnFail: () => options.continueOnFail ?? false,
		getWorkflowStaticData: () => staticData,
		getExecutionId: () => 'exec-1',
		getMode: () => 'manual',
		getWorkflow: () => ({ id: 'wf-1', name: 'Test', active: false }),
		logger: { debug() {}, info() {}, warn() {}, error() {} },
		helpers,
	};
	return { context: context as unknown as IExecuteFunctions, sent, staticData, node, binaryCalls };
}

/** The bytes of a Buffer, or of a stream read to its end (as n8n's prepareBinaryData reads one). */
export async function bufferOf(data: Buffer | AsyncIterable<unknown>): Promise<Buffer> {
	if (Buffer.isBuffer(data)) return data;
	const chunks: Buffer[] = [];
	for await (const chunk of data) chunks.push(Buffer.from(chunk as Buffer));
	return Buffer.concat(chunks);
}
