import type { IDataObject, IHookFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsOfValues, TOOL_PARAMETER_TYPES } from '../../VoiceChatAssistant/descriptions';
import type { ToolParameterType } from '../../VoiceChatAssistant/descriptions';
import { isObject } from '../../VoiceChatAssistant/transport';
import { MID_CALL_TOOL, readAssistantIds } from '../core/events';

/**
 * The "Mid-Call Tool Request" event: the definition of the tool the node
 * registers at the service (its form fields and how they are read and
 * checked) and what it remembers of the registration; how it answers the
 * service's request during a call: toolRequest.ts.
 *
 * The service calls the tool's endpoint with the headers the tool carries;
 * the node gives the tool one header with a random secret, so the secret never
 * appears in a URL, and refuses (401) every request without it.
 */

/** The header of the tool that carries the secret (n8n gives header names in lower case). */
export const SECRET_HEADER = 'X-Tool-Secret';

/** The parameter types in the order the form lists them (string, the default, first). */
const FORM_PARAMETER_TYPES: ToolParameterType[] = ['string', 'number', 'boolean'];

export interface ToolParameter {
	name: string;
	type: ToolParameterType;
	description: string;
}

/** What the form asks the service to hold: the tool as the service describes it. */
export interface ToolDefinition {
	name: string;
	description: string;
	timeout: number;
	schema: ToolParameter[];
}

export interface ToolRegistration {
	toolId: number;
	/** n8n's webhook URL the tool calls (test or production). */
	webhookUrl: string;
	secret: string;
	definition: ToolDefinition;
	/** The assistants chosen in the form when the tool was registered. */
	assistants: number[];
	/** The assistants whose tool list this node added the tool to (only these are detached). */
	attached: number[];
}

const NAME_RULE = /^[a-z][a-z_]*$/;
const PARAMETER_NAME_RULE = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MAX_DESCRIPTION = 255;
const MAX_PARAMETER_NAME = 64;
export const DEFAULT_TIMEOUT = 10;

const show = { show: { event: [MID_CALL_TOOL] } };

/** The form fields of the event. */
export const midCallToolProperties: INodeProperties[] = [
	{
		displayName:
			"During a call the assistant sends this tool's request to this workflow and waits for the answer: the workflow must answer within the tool's timeout (1 to 30 seconds), with one answer per request. On activation the tool is created on the service with this workflow's URL and added to the chosen assistants next to their other tools (read from the service first; where the service does not show an assistant's tools, nothing is changed and you add the tool to that assistant by hand); on deactivation it is removed from them and deleted.",
		name: 'midCallToolNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	{
		displayName: 'Tool Name',
		name: 'toolName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'check_free_slot',
		description:
			'Name of the tool as the AI sees it: lowercase letters and underscores, starting with a letter',
		displayOptions: show,
	},
	{
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		required: true,
		typeOptions: { rows: 3 },
		default: '',
		placeholder:
			'Checks whether an appointment slot is free. Use it when the caller asks for a date.',
		description: 'When and how the AI should use the tool (at most 255 characters)',
		displayOptions: show,
	},
	{
		displayName: 'Tool Parameters',
		name: 'toolParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Parameter',
		default: {},
		description:
			'What the AI extracts from the conversation and sends with the request; the item carries them in "parameters"',
		displayOptions: show,
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'date',
						description: 'Letters, digits and underscores, not starting with a digit',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: optionsOfValues(FORM_PARAMETER_TYPES),
						default: 'string',
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						placeholder: 'The date the caller asks for, as YYYY-MM-DD',
						description: 'What the AI should put in this parameter (at most 255 characters)',
					},
				],
			},
		],
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'toolTimeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 30, numberPrecision: 0 },
		default: DEFAULT_TIMEOUT,
		description:
			'How long the assistant waits for the answer (1 to 30 seconds). The workflow must answer within this time.',
		displayOptions: show,
	},
	{
		displayName: 'Response Mode',
		name: 'responseMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'When Last Node Finishes',
				value: 'lastNode',
				description: 'Answer the assistant with the first item of the last node, as JSON',
			},
			{
				name: "Using 'Respond to Webhook' Node",
				value: 'responseNode',
				description: 'Answer the assistant with what a Respond to Webhook node returns',
			},
		],
		default: 'lastNode',
		description: 'How the workflow answers the assistant',
		displayOptions: show,
	},
];

function fail(ctx: Pick<IHookFunctions, 'getNode'>, message: string, description: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { description });
}

/** The tool the form describes, checked field by field before any request. */
export function readDefinition(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter'>,
): ToolDefinition {
	const name = String(ctx.getNodeParameter('toolName', '') ?? '').trim();
	if (!NAME_RULE.test(name)) {
		fail(
			ctx,
			`Tool Name must be lowercase letters and underscores starting with a letter, got ${JSON.stringify(name)}`,
			'The service accepts only names such as "check_free_slot".',
		);
	}
	const description = String(ctx.getNodeParameter('toolDescription', '') ?? '').trim();
	if (description === '' || description.length > MAX_DESCRIPTION) {
		fail(
			ctx,
			`Tool Description must have 1 to ${MAX_DESCRIPTION} characters, it has ${description.length}`,
			'Say in a sentence or two when the AI should use the tool.',
		);
	}
	const timeout = Number(ctx.getNodeParameter('toolTimeout', DEFAULT_TIMEOUT));
	if (!Number.isInteger(timeout) || timeout < 1 || timeout > 30) {
		fail(
			ctx,
			`Timeout (Seconds) must be a whole number from 1 to 30, got ${JSON.stringify(timeout)}`,
			'The service waits at most 30 seconds for a tool.',
		);
	}
	const collection = ctx.getNodeParameter('toolParameters', {}) as IDataObject;
	const entries = Array.isArray(collection?.parameter)
		? (collection.parameter as IDataObject[])
		: [];
	const schema: ToolParameter[] = [];
	entries.forEach((entry, index) => {
		const where = `Tool Parameters: parameter ${index + 1}`;
		const paramName = String(entry?.name ?? '').trim();
		if (!PARAMETER_NAME_RULE.test(paramName) || paramName.length > MAX_PARAMETER_NAME) {
			fail(
				ctx,
				`${where}: Name must be letters, digits and underscores (not starting with a digit, at most ${MAX_PARAMETER_NAME}), got ${JSON.stringify(paramName)}`,
				'Name each parameter as the AI should fill it, e.g. "date" or "order_number".',
			);
		}
		if (schema.some((p) => p.name === paramName)) {
			fail(ctx, `${where}: Name "${paramName}" is used twice`, 'Give each parameter its own name.');
		}
		const type = String(entry?.type ?? 'string') as ToolParameterType;
		if (!TOOL_PARAMETER_TYPES.includes(type)) {
			fail(
				ctx,
				`${where}: Type must be string, number or boolean, got ${JSON.stringify(type)}`,
				'Pick the type from the list.',
			);
		}
		const paramDescription = String(entry?.description ?? '').trim();
		if (paramDescription === '' || paramDescription.length > MAX_DESCRIPTION) {
			fail(
				ctx,
				`${where}: Description must have 1 to ${MAX_DESCRIPTION} characters, it has ${paramDescription.length}`,
				'Tell the AI what to put in the parameter.',
			);
		}
		schema.push({ name: paramName, type, description: paramDescription });
	});
	return { name, description, timeout, schema };
}

/** The tool's body for create and update: n8n's URL, POST, the timeout, the secret header and the schema. */
export function toolBody(
	definition: ToolDefinition,
	webhookUrl: string,
	secret: string,
): IDataObject {
	return {
		name: definition.name,
		description: definition.description,
		endpoint: webhookUrl,
		method: 'POST',
		timeout: definition.timeout,
		headers: [{ name: SECRET_HEADER, value: secret }],
		schema: definition.schema.map((p) => ({ ...p })),
	};
}

export function sameDefinition(a: ToolDefinition, b: ToolDefinition): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** The assistants chosen in the form (the same fields as the other events). */
export function readToolAssistants(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter'>,
): number[] {
	return readAssistantIds(ctx);
}

/**
 * Static data key of the registrations: one per webhook URL, so that a test
 * listener (n8n's test URL) keeps its own tool apart from the active
 * workflow's (the production URL), whatever mode n8n runs the hooks in.
 */
const KEY = 'midCallTools';

function numbers(value: unknown): number[] {
	return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

function readOne(value: unknown): ToolRegistration | undefined {
	if (!isObject(value) || !isObject(value.definition)) return undefined;
	const { toolId, webhookUrl, secret } = value;
	if (typeof toolId !== 'number' || typeof webhookUrl !== 'string' || typeof secret !== 'string')
		return undefined;
	const d = value.definition;
	return {
		toolId,
		webhookUrl,
		secret,
		definition: {
			name: String(d.name),
			description: String(d.description),
			timeout: Number(d.timeout),
			schema: (Array.isArray(d.schema) ? d.schema : []).filter(isObject).map((p) => ({
				name: String(p.name),
				type: String(p.type) as ToolParameterType,
				description: String(p.description),
			})),
		},
		assistants: numbers(value.assistants),
		attached: numbers(value.attached),
	};
}

/** Every tool registration of the node (production and test URL). */
export function readToolRegistrations(staticData: IDataObject): ToolRegistration[] {
	const list = staticData[KEY];
	if (!Array.isArray(list)) return [];
	return list.map(readOne).filter((r): r is ToolRegistration => r !== undefined);
}

/** The registration of the tool that calls `webhookUrl`. */
export function readToolRegistration(
	staticData: IDataObject,
	webhookUrl: string,
): ToolRegistration | undefined {
	return readToolRegistrations(staticData).find((r) => r.webhookUrl === webhookUrl);
}

/** Replaces the registration of `webhookUrl` (new objects, so n8n notices the change); undefined removes it. */
export function writeToolRegistration(
	staticData: IDataObject,
	webhookUrl: string,
	registration: ToolRegistration | undefined,
): void {
	const others = readToolRegistrations(staticData).filter((r) => r.webhookUrl !== webhookUrl);
	const list = registration ? [...others, registration] : others;
	if (list.length === 0) {
		if (KEY in staticData) delete staticData[KEY];
		return;
	}
	staticData[KEY] = list.map((r) => ({
		toolId: r.toolId,
		webhookUrl: r.webhookUrl,
		secret: r.secret,
		definition: { ...r.definition, schema: r.definition.schema.map((p) => ({ ...p })) },
		assistants: [...r.assistants],
		attached: [...r.attached],
	}));
}
