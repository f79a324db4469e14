import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionsOfValues, TOOL_PARAMETER_TYPES } from '../../descriptions';
import { readLocatorId } from '../parameters';
import { checkEnum, checkMaxLength, checkNumberRange, checkUrl, refuse } from '../validation';

/** An HTTP header name: a token of RFC 9110 (no spaces, colons or line breaks). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;
const SCHEMA_TYPES = TOOL_PARAMETER_TYPES;
const NAME = /^[a-z][a-z_]*$/;

/** Every field of a tool; create shows name, description, endpoint and method up front. */
export const toolFields: Record<string, INodeProperties> = {
	name: {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. check_availability',
		description:
			'Name the AI calls the tool by: lowercase letters and underscores, starting with a letter',
	},
	description: {
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'When and how the AI should use the tool, at most 255 characters',
	},
	endpoint: {
		displayName: 'Endpoint',
		name: 'endpoint',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://api.example.com/availability',
		description: 'URL the tool calls',
	},
	method: {
		displayName: 'Method',
		name: 'method',
		type: 'options',
		default: 'POST',
		description: 'HTTP method of the call',
		options: METHODS.map((value) => ({ name: value, value })),
	},
	timeout: {
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 30 },
		default: 10,
		description: 'How long the call may take, 1-30 seconds',
	},
	headers: {
		displayName: 'Headers',
		name: 'headers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Header',
		default: {},
		description: 'Headers sent to the endpoint, e.g. an Authorization header',
		options: [
			{
				displayName: 'Header',
				name: 'values',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						typeOptions: { password: true },
						default: '',
					},
				],
			},
		],
	},
	schema: {
		displayName: 'Parameters',
		name: 'schema',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Parameter',
		default: {},
		description: 'Values the AI extracts from the conversation and sends to the endpoint',
		options: [
			{
				displayName: 'Parameter',
				name: 'values',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'string',
						options: optionsOfValues(SCHEMA_TYPES),
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: 'What the value is, for the AI',
					},
				],
			},
		],
	},
};

export function toolId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, 'toolId', 'Mid Call Tool');
}

/** The JSON body for the fields given, each checked against the service's rules. */
export function toolBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
): IDataObject {
	const body: IDataObject = {};
	if (fields.name !== undefined) {
		const name = String(fields.name).trim();
		if (!NAME.test(name)) {
			refuse(
				ctx,
				itemIndex,
				`Name must be lowercase letters and underscores, starting with a letter (e.g. check_availability), got "${name}"`,
			);
		}
		body.name = name;
	}
	if (fields.description !== undefined) {
		checkMaxLength(ctx, itemIndex, 'Description', fields.description, 255);
		body.description = fields.description;
	}
	if (fields.endpoint !== undefined) {
		const endpoint = String(fields.endpoint).trim();
		checkUrl(ctx, itemIndex, 'Endpoint', endpoint);
		body.endpoint = endpoint;
	}
	if (fields.method !== undefined) {
		checkEnum(ctx, itemIndex, 'Method', fields.method, METHODS);
		body.method = fields.method;
	}
	if (fields.timeout !== undefined) {
		checkNumberRange(ctx, itemIndex, 'Timeout (Seconds)', fields.timeout, 1, 30, { integer: true });
		body.timeout = fields.timeout;
	}
	if (fields.headers !== undefined) {
		body.headers = (((fields.headers as IDataObject).values ?? []) as IDataObject[]).map((h, n) => {
			const name = String(h.name ?? '').trim();
			const value = String(h.value ?? '');
			if (!name) refuse(ctx, itemIndex, `Headers → Header ${n + 1} needs a name`);
			if (!HEADER_NAME.test(name))
				refuse(
					ctx,
					itemIndex,
					`Headers → Header ${n + 1} → Name must be an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~, no spaces or colons), got "${name}"`,
				);
			if (/[\r\n\0]/.test(value))
				refuse(
					ctx,
					itemIndex,
					`Headers → Header "${name}" → Value must be one line: it contains a line break or a NUL character`,
				);
			return { name, value };
		});
	}
	if (fields.schema !== undefined) {
		body.schema = (((fields.schema as IDataObject).values ?? []) as IDataObject[]).map((p, n) => {
			if (!String(p.name ?? '').trim())
				refuse(ctx, itemIndex, `Parameters → Parameter ${n + 1} needs a name`);
			checkEnum(ctx, itemIndex, `Parameters → Parameter ${n + 1} → Type`, p.type, SCHEMA_TYPES);
			const parameter: IDataObject = { name: String(p.name).trim(), type: p.type ?? 'string' };
			// an optional empty description is left out, not sent as ""
			if (String(p.description ?? '').trim()) parameter.description = String(p.description);
			return parameter;
		});
	}
	return body;
}
