/**
 * A credential's expression (`={{ ... }}`) resolved the way n8n resolves the
 * expressions of a credential's `authenticate` and of its test request: by
 * the workflow's expression engine (n8n-workflow's Expression, with its
 * sandbox and its list of globals) with `$credentials` among the additional
 * keys; an empty result becomes '' (n8n's CredentialsHelper.resolveValue).
 * The engine is n8n's `legacy` one (n8n 1.x, and 2.x with
 * N8N_EXPRESSION_ENGINE=legacy); 2.x's default `vm` engine runs the same
 * JavaScript in a V8 isolate.
 */
import type { IDataObject, INode, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

const node: INode = {
	id: 'credential-test',
	name: 'Credential test',
	type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistant',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const nodeTypes = {
	getByName: () => undefined,
	getByNameAndVersion: () => undefined,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

let workflow: Workflow | undefined;

export function resolveCredentialExpression(expression: string, credentials: IDataObject): string {
	workflow ??= new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const value = workflow.expression.getSimpleParameterValue(
		node,
		expression,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
	return value ? String(value) : '';
}
