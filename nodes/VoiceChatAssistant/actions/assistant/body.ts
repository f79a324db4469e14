import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { keyValuePairs } from '../parameters';
import {
	checkEnum,
	checkLengthBetween,
	checkMaxLength,
	checkNumberRange,
	checkTimezone,
	checkUrl,
	checkVariableName,
	refuse,
	toId,
} from '../validation';
import {
	AMBIENT_SOUNDS,
	ASSISTANT_TYPES,
	BUILTIN_TOOL_TYPES,
	ENDPOINT_TYPES,
	FILLER_KINDS,
	KNOWLEDGEBASE_MODES,
	LABELS,
	MODES,
	SCHEMA_TYPES,
	configurationFields,
} from './fields';

/**
 * The assistant's API body from the editor's values: IDs, ranges (read from
 * the fields' typeOptions), lengths and enums checked before anything is sent.
 */

const MAX_LENGTHS: Record<string, number> = {
	name: 255,
	initial_message: 200,
	reengagement_prompt: 1000,
	voice_mail_message: 1000,
};
const ID_FIELDS = [
	'voice_id',
	'language_id',
	'llm_model_id',
	'multimodal_model_id',
	'chat_llm_fallback_id',
	'folder_id',
	'knowledgebase_id',
	'phone_number_id',
	'synthesizer_provider_id',
	'transcriber_provider_id',
];

/** Number ranges of the fields: whole numbers unless the field has decimals. */
const RANGES = new Map(
	configurationFields()
		.filter((f: INodeProperties) => f.type === 'number')
		.map((f: INodeProperties) => [
			f.name,
			{
				min: Number(f.typeOptions?.minValue),
				max: Number(f.typeOptions?.maxValue),
				integer: f.typeOptions?.numberPrecision === undefined,
			},
		]),
);

/** The label the editor shows for an API field. */
export function labelOf(key: string): string {
	return LABELS[key] ?? key;
}

/** The API body of the fields given, converted and checked one by one. */
export function configurationBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	values: IDataObject,
): IDataObject {
	const body: IDataObject = {};
	for (const [key, raw] of Object.entries(values)) {
		if (raw === undefined || raw === '') continue;
		const label = labelOf(key);
		const range = RANGES.get(key);
		if (ID_FIELDS.includes(key)) body[key] = toId(ctx, itemIndex, label, raw);
		else if (key === 'secondary_language_ids' || key === 'tool_ids' || key === 'label_ids') {
			body[key] = (Array.isArray(raw) ? raw : String(raw).split(','))
				.filter((v) => String(v).trim() !== '')
				.map((v) => toId(ctx, itemIndex, label, v));
		} else if (range) {
			checkNumberRange(ctx, itemIndex, label, raw, range.min, range.max, {
				integer: range.integer,
			});
			body[key] = Number(raw);
		} else if (key === 'tools') body.tools = toolsBody(ctx, itemIndex, raw as IDataObject);
		else if (key === 'post_call_schema')
			body.post_call_schema = schemaBody(ctx, itemIndex, raw as IDataObject);
		else if (key === 'variables')
			body.variables = keyValuePairs(raw, 'values', (name) =>
				checkVariableName(ctx, itemIndex, label, name),
			);
		else if (key === 'filler_config') body.filler_config = fillerBody(raw as IDataObject);
		else body[key] = raw;
	}
	for (const [key, max] of Object.entries(MAX_LENGTHS))
		checkMaxLength(ctx, itemIndex, labelOf(key), body[key], max);
	checkEnum(ctx, itemIndex, 'Mode', body.mode, MODES);
	checkEnum(ctx, itemIndex, 'Type', body.type, ASSISTANT_TYPES);
	checkEnum(ctx, itemIndex, 'Knowledgebase Mode', body.knowledgebase_mode, KNOWLEDGEBASE_MODES);
	checkEnum(ctx, itemIndex, 'Endpoint Type', body.endpoint_type, ENDPOINT_TYPES);
	checkEnum(ctx, itemIndex, 'Ambient Sound', body.ambient_sound, AMBIENT_SOUNDS);
	if (body.timezone !== undefined) body.timezone = checkTimezone(ctx, itemIndex, body.timezone);
	if (body.webhook_url !== undefined && body.webhook_url !== null)
		checkUrl(ctx, itemIndex, 'Webhook URL', body.webhook_url);
	const chatWebhook = body.conversation_ended_webhook_url;
	if (chatWebhook !== undefined && chatWebhook !== null)
		checkUrl(ctx, itemIndex, labelOf('conversation_ended_webhook_url'), chatWebhook);
	return body;
}

/** Filler phrases: one per line (or a list from an expression), empty lines left out. */
function fillerBody(raw: IDataObject): IDataObject {
	const body: IDataObject = {};
	for (const kind of FILLER_KINDS) {
		const value = raw[kind];
		if (value === undefined) continue;
		const lines = Array.isArray(value) ? value.map(String) : String(value).split(/\r?\n/);
		body[kind] = lines.map((line) => line.trim()).filter((line) => line !== '');
	}
	return body;
}

function toolsBody(ctx: IExecuteFunctions, itemIndex: number, raw: IDataObject): IDataObject[] {
	return ((raw.tool ?? []) as IDataObject[]).map((tool, n) => {
		const where = `Built-in Tools → Tool ${n + 1}`;
		checkEnum(ctx, itemIndex, `${where} → Type`, tool.type, BUILTIN_TOOL_TYPES);
		const out: IDataObject = { type: tool.type };
		if (tool.description) out.description = tool.description;
		if (tool.type === 'call_transfer') {
			if (!String(tool.phone_number ?? '').trim())
				refuse(ctx, itemIndex, `${where} (call transfer) needs a Phone Number`);
			out.phone_number = String(tool.phone_number).trim();
			if (tool.custom !== undefined) out.custom = tool.custom;
			if (tool.timezone) {
				out.timezone = checkTimezone(
					ctx,
					itemIndex,
					tool.timezone,
					`${where} → Availability Timezone`,
				);
			}
		}
		if (tool.type === 'calendar_integration') {
			for (const key of ['calendar_api_key', 'calendar_event_slug']) {
				if (!String(tool[key] ?? '').trim())
					refuse(
						ctx,
						itemIndex,
						`${where} (calendar integration) needs a ${key === 'calendar_api_key' ? 'Calendar API Key' : 'Calendar Event Slug'}`,
					);
				out[key] = tool[key];
			}
		}
		return out;
	});
}

function schemaBody(ctx: IExecuteFunctions, itemIndex: number, raw: IDataObject): IDataObject[] {
	return ((raw.field ?? []) as IDataObject[]).map((field, n) => {
		const where = `Post-Call Schema → Field ${n + 1}`;
		const name = String(field.name ?? '');
		if (!/^[a-z0-9_]{3,16}$/.test(name)) {
			refuse(
				ctx,
				itemIndex,
				`${where} → Name must be 3-16 characters of lowercase letters, digits and underscores, got "${name}"`,
			);
		}
		checkEnum(ctx, itemIndex, `${where} → Type`, field.type, SCHEMA_TYPES);
		checkLengthBetween(ctx, itemIndex, `${where} → Description`, String(field.description ?? ''), {
			min: 3,
			max: 255,
		});
		return { name, type: field.type ?? 'string', description: field.description };
	});
}
