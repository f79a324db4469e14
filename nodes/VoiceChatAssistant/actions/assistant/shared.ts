import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { keyValueCollection } from '../common.descriptions';
import { checkEnum, checkLengthBetween, checkMaxLength, checkNumberRange, checkUrl, keyValuePairs, refuse, toId } from '../validation';

export const MODES = ['pipeline', 'multimodal', 'dualplex'] as const;
const REALTIME = ['multimodal', 'dualplex'];
const AMBIENT = ['cafe', 'city', 'crowded_room', 'forest', 'nature', 'off', 'office'];
const TOOL_TYPES = ['calendar_integration', 'call_transfer', 'dtmf_input', 'end_call'];

/** `mode` values under which a field is shown; `keep` is the update's "Keep Current". */
const ONLY_PIPELINE = { show: { '/mode': ['pipeline', 'keep'] } };
const ONLY_REALTIME = { show: { '/mode': ['multimodal', 'dualplex', 'keep'] } };

const title = (s: string) => s.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** Whole-number ranges and numeric ranges of SPEC.md's configuration table. */
const INTEGER_RANGES: Record<string, [number, number, number | undefined]> = {
	max_duration: [20, 1200, 600],
	max_silence_duration: [1, 360, 40],
	max_initial_silence_duration: [1, 120, undefined],
	ringing_time: [1, 60, 30],
	reengagement_interval: [7, 600, 30],
	min_interrupt_words: [0, 10, undefined],
};
const NUMBER_RANGES: Record<string, [number, number, number | undefined]> = {
	voice_stability: [0, 1, 0.7],
	voice_similarity: [0, 1, 0.5],
	speech_speed: [0.7, 1.2, 1],
	llm_temperature: [0, 1, 0.1],
	turn_detection_threshold: [0, 1, undefined],
	endpoint_sensitivity: [0, 5, 0.5],
	interrupt_sensitivity: [0, 5, 0.5],
	ambient_sound_volume: [0, 1, 0.5],
};
const MAX_LENGTHS: Record<string, number> = { name: 255, initial_message: 200, reengagement_prompt: 1000, voice_mail_message: 1000 };
const ID_FIELDS = [
	'voice_id',
	'language_id',
	'llm_model_id',
	'multimodal_model_id',
	'chat_llm_fallback_id',
	'knowledgebase_id',
	'phone_number_id',
	'synthesizer_provider_id',
	'transcriber_provider_id',
];
const BOOLEANS: Record<string, [boolean, string]> = {
	tts_emotion_enabled: [true, 'Whether the voice expresses emotions'],
	allow_interruptions: [true, 'Whether the caller can interrupt the assistant (always on in multimodal and dualplex)'],
	fillers: [false, 'Whether the assistant uses filler words while thinking (pipeline only)'],
	record: [false, 'Whether calls are recorded'],
	enable_noise_cancellation: [true, 'Whether background noise is filtered'],
	wait_for_customer: [false, 'Whether the assistant waits for the customer to speak first'],
	end_call_on_voicemail: [true, 'Whether the call ends when a voicemail answers'],
	is_webhook_active: [false, 'Whether the post-call webhook is sent (Webhook URL required)'],
	send_webhook_only_on_completed: [true, 'Whether failed and no-answer calls send no webhook'],
	include_recording_in_webhook: [true, 'Whether the recording URL is part of the webhook'],
	post_call_evaluation: [true, 'Whether calls are evaluated after they end'],
};

/** Fields that can be cleared on update by sending null. */
export const NULLABLE = [
	'chat_llm_fallback_id',
	'knowledgebase_id',
	'max_initial_silence_duration',
	'min_interrupt_words',
	'phone_number_id',
	'reengagement_prompt',
	'synthesizer_provider_id',
	'transcriber_provider_id',
	'turn_detection_threshold',
	'voice_mail_message',
	'webhook_url',
];
/** Collections that replace the existing one; an explicit choice sends []. */
export const COLLECTIONS = ['post_call_schema', 'secondary_language_ids', 'tool_ids', 'tools'];

function loadOptionsField(name: string, displayName: string, method: string, description: string, extra: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod: method, ...(method === 'getVoices' ? { loadOptionsDependsOn: ['mode', 'languageId'] } : {}) },
		default: '',
		description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
		...extra,
	} as INodeProperties;
}

/** The optional configuration fields, by their API names (shared by create and update). */
export function configurationFields(): INodeProperties[] {
	const fields: INodeProperties[] = [
		{ displayName: 'Ambient Sound', name: 'ambient_sound', type: 'options', default: 'off', description: 'Background sound during calls', options: AMBIENT.map((v) => ({ name: title(v), value: v })) },
		loadOptionsField('chat_llm_fallback_id', 'Chat LLM Fallback', 'getLlmModels', 'Fallback LLM for tool calls (multimodal and dualplex only)', { displayOptions: ONLY_REALTIME }),
		{ displayName: 'Endpoint Type', name: 'endpoint_type', type: 'options', default: 'vad', description: 'How the end of the caller\'s turn is detected', options: [{ name: 'AI', value: 'ai' }, { name: 'VAD', value: 'vad' }] },
		loadOptionsField('knowledgebase_id', 'Knowledgebase', 'getKnowledgebases', 'Knowledgebase the assistant uses'),
		{
			displayName: 'Knowledgebase Mode',
			name: 'knowledgebase_mode',
			type: 'options',
			default: 'function_call',
			description: 'How the knowledgebase is used: Prompt is available in the pipeline mode only',
			options: [
				{ name: 'Function Call', value: 'function_call' },
				{ name: 'Prompt (Pipeline Only)', value: 'prompt' },
			],
		},
		loadOptionsField('phone_number_id', 'Phone Number', 'getAssignablePhoneNumbers', 'Phone number of the assistant (numbers the assistant type can take)'),
		{ displayName: 'Post-Call Schema', name: 'post_call_schema', type: 'fixedCollection', typeOptions: { multipleValues: true }, placeholder: 'Add Field', default: {}, description: 'Values extracted from each call after it ends', options: [{ displayName: 'Field', name: 'field', values: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '', description: '3-16 characters: lowercase letters, digits and underscores' },
			{ displayName: 'Type', name: 'type', type: 'options', default: 'string', options: [{ name: 'Bool', value: 'bool' }, { name: 'Number', value: 'number' }, { name: 'String', value: 'string' }] },
			{ displayName: 'Description', name: 'description', type: 'string', default: '', description: '3-255 characters: what to extract' },
		] }] },
		{ displayName: 'Reengagement Prompt', name: 'reengagement_prompt', type: 'string', typeOptions: { rows: 2 }, default: '', description: 'What the assistant says after silence, at most 1000 characters' },
		{ displayName: 'System Prompt', name: 'system_prompt', type: 'string', typeOptions: { rows: 4 }, default: '', description: 'Behaviour and personality of the assistant' },
		loadOptionsField('secondary_language_ids', 'Secondary Languages', 'getLanguages', 'Further languages the assistant detects and switches to', { type: 'multiOptions', default: [] }),
		loadOptionsField('synthesizer_provider_id', 'Synthesizer Provider', 'getSynthesizerProviders', 'Text-to-speech provider (default: chosen by language)'),
		{ displayName: 'Timezone', name: 'timezone', type: 'string', default: '', placeholder: 'e.g. Europe/Berlin', description: 'Region/city time zone name' },
		loadOptionsField('tool_ids', 'Mid Call Tools', 'getTools', 'Mid call tools the assistant may call', { type: 'multiOptions', default: [] }),
		{ displayName: 'Built-in Tools', name: 'tools', type: 'fixedCollection', typeOptions: { multipleValues: true }, placeholder: 'Add Tool', default: {}, description: 'Built-in abilities: transfer the call, end it, send keypad tones, book appointments', options: [{ displayName: 'Tool', name: 'tool', values: [
			{ displayName: 'Availability Timezone', name: 'timezone', type: 'string', default: '', description: 'Time zone of the transfer target\'s availability', displayOptions: { show: { type: ['call_transfer'] } } },
			{ displayName: 'Calendar API Key', name: 'calendar_api_key', type: 'string', typeOptions: { password: true }, default: '', description: 'API key of the calendar (required)', displayOptions: { show: { type: ['calendar_integration'] } } },
			{ displayName: 'Calendar Event Slug', name: 'calendar_event_slug', type: 'string', default: '', description: 'Event type to book (required)', displayOptions: { show: { type: ['calendar_integration'] } } },
			{ displayName: 'Description', name: 'description', type: 'string', default: '', description: 'When the assistant should use the tool' },
			{ displayName: 'Dynamic Number', name: 'custom', type: 'boolean', default: false, description: 'Whether the AI may determine the number itself', displayOptions: { show: { type: ['call_transfer'] } } },
			{ displayName: 'Phone Number', name: 'phone_number', type: 'string', default: '', description: 'Number to transfer to (required)', displayOptions: { show: { type: ['call_transfer'] } } },
			{ displayName: 'Type', name: 'type', type: 'options', default: 'end_call', options: [
				{ name: 'Calendar Integration', value: 'calendar_integration' },
				{ name: 'Call Transfer', value: 'call_transfer' },
				{ name: 'DTMF Input', value: 'dtmf_input' },
				{ name: 'End Call', value: 'end_call' },
			] },
		] }] },
		loadOptionsField('transcriber_provider_id', 'Transcriber Provider', 'getTranscriberProviders', 'Speech-to-text provider (pipeline only; default: chosen by language)', { displayOptions: ONLY_PIPELINE }),
		{ ...keyValueCollection('Variables', 'variables', 'Custom values referenced in prompts as {{variable_name}}; on update they replace all existing variables') },
		{ displayName: 'Voice Mail Message', name: 'voice_mail_message', type: 'string', typeOptions: { rows: 2 }, default: '', description: 'Message left on a voicemail, at most 1000 characters' },
		{ displayName: 'Webhook URL', name: 'webhook_url', type: 'string', default: '', description: 'Target of post-call notifications; required when Is Webhook Active is on' },
	];
	for (const [name, [fallback, description]] of Object.entries(BOOLEANS)) {
		// literal defaults: n8n's lint rules (and its package scanner, which ignores disable comments) read them statically
		const field: INodeProperties = fallback
			? { displayName: title(name), name, type: 'boolean', default: true, description }
			: { displayName: title(name), name, type: 'boolean', default: false, description };
		if (name === 'fillers' || name === 'allow_interruptions') field.displayOptions = ONLY_PIPELINE;
		fields.push(field);
	}
	for (const [name, [min, max, fallback]] of Object.entries({ ...INTEGER_RANGES, ...NUMBER_RANGES })) {
		const integer = name in INTEGER_RANGES;
		const defaultValue = fallback ?? min; // a named value, which the lint rules accept as computed
		const field: INodeProperties = {
			displayName: title(name),
			name,
			type: 'number',
			typeOptions: { minValue: min, maxValue: max, ...(integer ? {} : { numberPrecision: 2 }) },
			default: defaultValue,
			description: `${min}-${max}${integer && name !== 'min_interrupt_words' ? ' seconds' : ''}${fallback !== undefined ? `, default ${fallback}` : ''}`,
		};
		if (name === 'turn_detection_threshold') field.displayOptions = ONLY_REALTIME;
		fields.push(field);
	}
	return fields.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** The API body of the fields given, converted and checked one by one. */
export function configurationBody(ctx: IExecuteFunctions, itemIndex: number, values: IDataObject): IDataObject {
	const body: IDataObject = {};
	for (const [key, raw] of Object.entries(values)) {
		if (raw === undefined || raw === '') continue;
		const label = title(key);
		if (ID_FIELDS.includes(key)) body[key] = toId(ctx, itemIndex, label, raw);
		else if (key === 'secondary_language_ids' || key === 'tool_ids') {
			body[key] = (Array.isArray(raw) ? raw : String(raw).split(',')).filter((v) => String(v).trim() !== '').map((v) => toId(ctx, itemIndex, label, v));
		} else if (key in INTEGER_RANGES) {
			const [min, max] = INTEGER_RANGES[key];
			checkNumberRange(ctx, itemIndex, label, raw, min, max, { integer: true });
			body[key] = Number(raw);
		} else if (key in NUMBER_RANGES) {
			const [min, max] = NUMBER_RANGES[key];
			checkNumberRange(ctx, itemIndex, label, raw, min, max);
			body[key] = Number(raw);
		} else if (key === 'tools') body.tools = toolsBody(ctx, itemIndex, raw as IDataObject);
		else if (key === 'post_call_schema') body.post_call_schema = schemaBody(ctx, itemIndex, raw as IDataObject);
		else if (key === 'variables') body.variables = keyValuePairs(raw);
		else body[key] = raw;
	}
	for (const [key, max] of Object.entries(MAX_LENGTHS)) checkMaxLength(ctx, itemIndex, title(key), body[key], max);
	checkEnum(ctx, itemIndex, 'Mode', body.mode, MODES);
	checkEnum(ctx, itemIndex, 'Type', body.type, ['inbound', 'outbound']);
	checkEnum(ctx, itemIndex, 'Knowledgebase Mode', body.knowledgebase_mode, ['function_call', 'prompt']);
	checkEnum(ctx, itemIndex, 'Endpoint Type', body.endpoint_type, ['vad', 'ai']);
	checkEnum(ctx, itemIndex, 'Ambient Sound', body.ambient_sound, AMBIENT);
	if (body.timezone !== undefined) checkTimezone(ctx, itemIndex, body.timezone);
	if (body.webhook_url !== undefined && body.webhook_url !== null) checkUrl(ctx, itemIndex, 'Webhook URL', body.webhook_url);
	return body;
}

function checkTimezone(ctx: IExecuteFunctions, itemIndex: number, value: unknown) {
	const zone = String(value);
	const supported = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone');
	const shaped = zone === 'UTC' || /^[A-Z][A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(zone);
	if (!shaped || (supported && zone !== 'UTC' && !supported.includes(zone))) {
		refuse(ctx, itemIndex, `Timezone must be a region/city time zone name such as Europe/Berlin or America/New_York, got "${zone}"`);
	}
}

function toolsBody(ctx: IExecuteFunctions, itemIndex: number, raw: IDataObject): IDataObject[] {
	return ((raw.tool ?? []) as IDataObject[]).map((tool, n) => {
		const where = `Built-in Tools → Tool ${n + 1}`;
		checkEnum(ctx, itemIndex, `${where} → Type`, tool.type, TOOL_TYPES);
		const out: IDataObject = { type: tool.type };
		if (tool.description) out.description = tool.description;
		if (tool.type === 'call_transfer') {
			if (!String(tool.phone_number ?? '').trim()) refuse(ctx, itemIndex, `${where} (call transfer) needs a Phone Number`);
			out.phone_number = String(tool.phone_number).trim();
			if (tool.custom !== undefined) out.custom = tool.custom;
			if (tool.timezone) {
				checkTimezone(ctx, itemIndex, tool.timezone);
				out.timezone = tool.timezone;
			}
		}
		if (tool.type === 'calendar_integration') {
			for (const key of ['calendar_api_key', 'calendar_event_slug']) {
				if (!String(tool[key] ?? '').trim()) refuse(ctx, itemIndex, `${where} (calendar integration) needs a ${title(key).replace('Api', 'API')}`);
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
			refuse(ctx, itemIndex, `${where} → Name must be 3-16 characters of lowercase letters, digits and underscores, got "${name}"`);
		}
		checkEnum(ctx, itemIndex, `${where} → Type`, field.type, ['string', 'number', 'bool']);
		checkLengthBetween(ctx, itemIndex, `${where} → Description`, String(field.description ?? ''), 3, 255);
		return { name, type: field.type ?? 'string', description: field.description };
	});
}

/**
 * The rules of SPEC.md that tie fields to the engine mode, checked for the
 * mode the body is for (undefined: an update that keeps the current mode).
 */
export function checkModeRules(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject, mode: string | undefined, creating: boolean) {
	if (mode === 'pipeline') {
		if (creating && body.llm_model_id === undefined) refuse(ctx, itemIndex, 'LLM Model is required for the pipeline mode');
		for (const key of ['multimodal_model_id', 'chat_llm_fallback_id', 'turn_detection_threshold']) {
			if (body[key] !== undefined && body[key] !== null) refuse(ctx, itemIndex, `${title(key)} applies to the multimodal and dualplex modes only, not pipeline`);
		}
	} else if (mode && REALTIME.includes(mode)) {
		if (creating && body.multimodal_model_id === undefined) refuse(ctx, itemIndex, `Multimodal Model is required for the ${mode} mode`);
		for (const key of ['llm_model_id', 'fillers', 'transcriber_provider_id']) {
			if (body[key] !== undefined && body[key] !== null) refuse(ctx, itemIndex, `${title(key)} applies to the pipeline mode only, not ${mode}`);
		}
		if (body.knowledgebase_mode !== undefined && body.knowledgebase_mode !== 'function_call') {
			refuse(ctx, itemIndex, `Knowledgebase Mode must be function_call in the ${mode} mode, got "${body.knowledgebase_mode}"`);
		}
		if (body.allow_interruptions === false) refuse(ctx, itemIndex, `Allow Interruptions cannot be turned off in the ${mode} mode`);
	}
	if (body.is_webhook_active === true && !body.webhook_url) {
		refuse(ctx, itemIndex, 'Webhook URL is required when Is Webhook Active is on');
	}
}
