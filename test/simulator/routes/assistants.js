'use strict';
/**
 * Assistants: list, outbound list, create, update, delete, and the webhook switches.
 *
 *   GET    /api/user/assistants/get                     paginated
 *   GET    /api/user/assistants/outbound                bare array
 *   POST   /api/user/assistant                          201 {message, data:{id,name,status,type,mode}}
 *   PUT    /api/user/assistant/:id                      200 same shape
 *   DELETE /api/user/assistant/:id                      {message}
 *   POST   /api/user/assistants/enable-inbound-webhook  {message, data: []}
 *   POST   /api/user/assistants/disable-inbound-webhook {message, data: []}
 *   POST   /api/user/assistants/disable-webhook         {message, data: []}
 *   POST   /api/user/assistants/enable-webhook          {message, data: []}  (uncertain route: docs/api.md, section 5)
 *   POST   /api/user/assistants/enable-/disable-conversation-ended-webhook {message, data: []}  (vendor docs)
 */
const { Validator, INVALID } = require('../validate');
const { HttpError, created, has, isPlainObject, iso, uuid, clone, intId } = require('../util');
const {
	MODES,
	ASSISTANT_TYPES,
	AMBIENT_SOUNDS,
	BUILTIN_TOOL_TYPES,
	ASSISTANT_DEFAULTS,
	defaultProviders,
	assistantPhone,
} = require('../domain');
const { visibleVoices } = require('./catalog');
const { paginate, pageParams } = require('../pagination');
const { nextId } = require('../state');

const VALIDATION_FAILED = 'Validation failed';

/** Per-field rules of SPEC's configuration table. */
const FIELDS = {
	name: { type: 'string', max: 255 },
	voice_id: { type: 'integer' },
	language_id: { type: 'integer' },
	type: { type: 'string', in: ASSISTANT_TYPES },
	mode: { type: 'string', in: MODES },
	timezone: { type: 'string', timezone: true },
	initial_message: { type: 'string', max: 200 },
	system_prompt: { type: 'string' },
	llm_model_id: { type: 'integer', nullable: true },
	multimodal_model_id: { type: 'integer', nullable: true },
	chat_llm_fallback_id: { type: 'integer', nullable: true },
	turn_detection_threshold: { type: 'number', nullable: true, min: 0, max: 1 },
	secondary_language_ids: { type: 'array', nullable: true },
	knowledgebase_id: { type: 'integer', nullable: true },
	knowledgebase_mode: { type: 'string', nullable: true, in: ['function_call', 'prompt'] },
	phone_number_id: { type: 'integer', nullable: true },
	tool_ids: { type: 'array', nullable: true },
	tools: { type: 'array', nullable: true },
	tts_emotion_enabled: { type: 'boolean' },
	voice_stability: { type: 'number', min: 0, max: 1 },
	voice_similarity: { type: 'number', min: 0, max: 1 },
	speech_speed: { type: 'number', min: 0.7, max: 1.2 },
	llm_temperature: { type: 'number', min: 0, max: 1 },
	synthesizer_provider_id: { type: 'integer', nullable: true },
	transcriber_provider_id: { type: 'integer', nullable: true },
	allow_interruptions: { type: 'boolean' },
	fillers: { type: 'boolean' },
	record: { type: 'boolean' },
	enable_noise_cancellation: { type: 'boolean' },
	wait_for_customer: { type: 'boolean' },
	max_duration: { type: 'integer', min: 20, max: 1200 },
	max_silence_duration: { type: 'integer', min: 1, max: 360 },
	max_initial_silence_duration: { type: 'integer', nullable: true, min: 1, max: 120 },
	ringing_time: { type: 'integer', min: 1, max: 60 },
	reengagement_interval: { type: 'integer', min: 7, max: 600 },
	reengagement_prompt: { type: 'string', nullable: true, max: 1000 },
	end_call_on_voicemail: { type: 'boolean' },
	voice_mail_message: { type: 'string', nullable: true, max: 1000 },
	endpoint_type: { type: 'string', in: ['vad', 'ai'] },
	endpoint_sensitivity: { type: 'number', min: 0, max: 5 },
	interrupt_sensitivity: { type: 'number', min: 0, max: 5 },
	min_interrupt_words: { type: 'integer', nullable: true, min: 0, max: 10 },
	ambient_sound: { type: 'string', nullable: true, in: AMBIENT_SOUNDS },
	ambient_sound_volume: { type: 'number', min: 0, max: 1 },
	is_webhook_active: { type: 'boolean' },
	webhook_url: { type: 'url', nullable: true, max: 2048 },
	send_webhook_only_on_completed: { type: 'boolean' },
	include_recording_in_webhook: { type: 'boolean' },
	post_call_evaluation: { type: 'boolean' },
	post_call_schema: { type: 'array', nullable: true },
	variables: { type: 'object', nullable: true },
	// fields the vendor's docs add to the API contract's configuration
	folder_id: { type: 'integer', nullable: true },
	label_ids: { type: 'array', nullable: true },
	filler_config: { type: 'object', nullable: true },
	conversation_inactivity_timeout: { type: 'integer', min: 1, max: 1440 },
	conversation_ended_retrigger: { type: 'boolean' },
	conversation_ended_webhook_url: { type: 'url', nullable: true, max: 2048 },
};

const REQUIRED_ON_CREATE = [
	'name',
	'voice_id',
	'language_id',
	'type',
	'mode',
	'timezone',
	'initial_message',
	'system_prompt',
];
const COLLECTIONS = {
	secondary_language_ids: [],
	tool_ids: [],
	tools: [],
	post_call_schema: [],
	variables: {},
	label_ids: [],
};
const FILLER_KINDS = ['positive', 'negative', 'question', 'neutral'];

function findAssistant(state, id) {
	return state.assistants.find((a) => a.id === id) || null;
}

function summary(a) {
	return { id: a.id, name: a.name, status: a.status, type: a.type, mode: a.mode };
}

/** List item: the whole stored configuration plus identifiers and webhook settings. */
function present(state, a) {
	const out = clone(a);
	out.user_id = state.user.id;
	out.phone_number = assistantPhone(state, a);
	return out;
}

function validateBuiltinTools(v, items) {
	const out = [];
	items.forEach((item, i) => {
		const p = `tools.${i}`;
		if (!isPlainObject(item)) {
			v.add(p, `The ${p} must be an object.`);
			return;
		}
		const check = (name, rules) => v.check(`${p}.${name}`, rules, item[name], has(item, name));
		const type = check('type', { required: true, type: 'string', in: BUILTIN_TOOL_TYPES });
		if (!type.ok) return;
		const tool = { type: type.value };
		const description = check('description', { type: 'string', nullable: true, max: 1000 });
		if (description.present) tool.description = description.value;
		if (type.value === 'call_transfer') {
			const phone = check('phone_number', { required: true, type: 'string' });
			const custom = check('custom', { type: 'boolean', nullable: true });
			const tz = check('timezone', { type: 'string', nullable: true });
			tool.phone_number = phone.value;
			if (custom.present) tool.custom = custom.value;
			if (tz.present) tool.timezone = tz.value;
		} else if (type.value === 'calendar_integration') {
			tool.calendar_api_key = check('calendar_api_key', { required: true, type: 'string' }).value;
			tool.calendar_event_slug = check('calendar_event_slug', {
				required: true,
				type: 'string',
			}).value;
		}
		out.push(tool);
	});
	return out;
}

function validatePostCallSchema(v, items) {
	const out = [];
	items.forEach((item, i) => {
		const p = `post_call_schema.${i}`;
		if (!isPlainObject(item)) {
			v.add(p, `The ${p} must be an object.`);
			return;
		}
		const check = (name, rules) => v.check(`${p}.${name}`, rules, item[name], has(item, name));
		const name = check('name', {
			required: true,
			type: 'string',
			min: 3,
			max: 16,
			regex: /^[a-z0-9_]+$/,
			messages: {
				regex: `The ${p}.name may only contain lowercase letters, numbers and underscores.`,
			},
		});
		const type = check('type', {
			required: true,
			type: 'string',
			in: ['string', 'number', 'bool'],
		});
		const description = check('description', { required: true, type: 'string', min: 3, max: 255 });
		out.push({ name: name.value, type: type.value, description: description.value });
	});
	return out;
}

/**
 * Validates a create (existing = null) or update body and returns the resulting record.
 * Throws the 422 {message: 'Validation failed', errors}.
 */
function buildAssistant(state, body, existing) {
	const isCreate = !existing;
	const v = new Validator(body, VALIDATION_FAILED);
	const values = {};
	for (const [field, rules] of Object.entries(FIELDS)) {
		const present = has(body, field);
		const required = REQUIRED_ON_CREATE.includes(field) && (isCreate || present);
		const r = v.check(field, { ...rules, required }, body[field], present);
		if (r.present && r.ok)
			values[field] =
				r.value === null && field in COLLECTIONS ? clone(COLLECTIONS[field]) : r.value;
	}
	const touched = (f) => has(values, f);

	const record = existing ? clone(existing) : clone(ASSISTANT_DEFAULTS);
	const mode = touched('mode') ? values.mode : record.mode;
	const languageId = touched('language_id') ? values.language_id : record.language_id;
	const modeChanged = !isCreate && touched('mode') && values.mode !== existing.mode;
	if (modeChanged) {
		// SPEC: changing the mode resets the mode-specific settings to the new mode's defaults.
		record.llm_model_id = null;
		record.multimodal_model_id = null;
		Object.assign(record, defaultProviders(state, mode, languageId));
		if (mode !== 'pipeline') {
			if (record.knowledgebase_mode === 'prompt') record.knowledgebase_mode = 'function_call';
			record.fillers = false;
			record.allow_interruptions = true;
		}
	}
	Object.assign(record, values);
	const defaults = defaultProviders(state, MODES.includes(mode) ? mode : 'pipeline', languageId);
	for (const f of ['synthesizer_provider_id', 'transcriber_provider_id']) {
		if (isCreate ? record[f] == null : touched(f) && values[f] === null) record[f] = defaults[f];
	}

	const modeOk = MODES.includes(record.mode) && !v.hasError('mode');
	const isModel = (id, type) => state.models.some((m) => m.id === id && m.type === type);

	if (touched('language_id') && !state.languages.some((l) => l.id === values.language_id)) {
		v.add('language_id', 'The selected language id is invalid.');
	}
	if ((touched('voice_id') || modeChanged) && record.voice_id != null && !v.hasError('voice_id')) {
		const voice = visibleVoices(state).find((x) => x.id === record.voice_id);
		if (!voice) v.add('voice_id', 'The selected voice id is invalid.');
		else if (modeOk && !voice.modes.includes(record.mode)) {
			v.add(
				'voice_id',
				`The selected voice is not compatible with the ${record.mode} engine mode.`,
			);
		}
	}
	if (modeOk) {
		if (record.mode === 'pipeline') {
			if (!v.hasError('llm_model_id')) {
				if (record.llm_model_id == null) {
					v.add('llm_model_id', 'The llm model id field is required when mode is pipeline.');
				} else if (touched('llm_model_id') && !isModel(record.llm_model_id, 'llm')) {
					v.add('llm_model_id', 'The selected llm model id is invalid.');
				}
			}
		} else if (!v.hasError('multimodal_model_id')) {
			if (record.multimodal_model_id == null) {
				v.add(
					'multimodal_model_id',
					`The multimodal model id field is required when mode is ${record.mode}.`,
				);
			} else if (
				(touched('multimodal_model_id') || touched('mode')) &&
				!isModel(record.multimodal_model_id, record.mode)
			) {
				v.add(
					'multimodal_model_id',
					`The selected multimodal model id is not a ${record.mode} model.`,
				);
			}
		}
	}
	if (
		touched('chat_llm_fallback_id') &&
		values.chat_llm_fallback_id !== null &&
		!isModel(values.chat_llm_fallback_id, 'llm')
	) {
		v.add('chat_llm_fallback_id', 'The selected chat llm fallback id is invalid.');
	}
	if (touched('secondary_language_ids')) {
		values.secondary_language_ids.forEach((id, i) => {
			const r = v.check(
				`secondary_language_ids.${i}`,
				{ type: 'integer', required: true },
				id,
				true,
			);
			if (r.ok && !state.languages.some((l) => l.id === r.value)) {
				v.add(
					`secondary_language_ids.${i}`,
					`The selected secondary_language_ids.${i} is invalid.`,
				);
			}
			if (r.ok) values.secondary_language_ids[i] = r.value;
		});
		record.secondary_language_ids = values.secondary_language_ids;
	}
	if (
		touched('knowledgebase_id') &&
		values.knowledgebase_id !== null &&
		!state.knowledgebases.some((k) => k.id === values.knowledgebase_id)
	) {
		v.add('knowledgebase_id', 'The selected knowledgebase id is invalid.');
	}
	if (
		modeOk &&
		touched('knowledgebase_mode') &&
		record.mode !== 'pipeline' &&
		values.knowledgebase_mode === 'prompt'
	) {
		v.add(
			'knowledgebase_mode',
			'The knowledgebase mode must be function_call for multimodal and dualplex assistants.',
		);
	}
	if (record.knowledgebase_id != null && record.knowledgebase_mode == null) {
		record.knowledgebase_mode = record.mode === 'pipeline' ? 'prompt' : 'function_call';
	}
	if (
		modeOk &&
		touched('allow_interruptions') &&
		values.allow_interruptions === false &&
		record.mode !== 'pipeline'
	) {
		v.add(
			'allow_interruptions',
			'Interruptions cannot be disabled for multimodal and dualplex assistants.',
		);
	}
	if (modeOk && touched('fillers') && values.fillers === true && record.mode !== 'pipeline') {
		v.add('fillers', 'Fillers are only available for pipeline assistants.');
	}
	for (const [field, list] of [
		['synthesizer_provider_id', state.synthesizerProviders],
		['transcriber_provider_id', state.transcriberProviders],
	]) {
		if (touched(field) && values[field] !== null && !list.some((p) => p.id === values[field])) {
			v.add(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`);
		}
	}
	if (
		(touched('is_webhook_active') || has(body, 'webhook_url')) &&
		record.is_webhook_active === true &&
		!record.webhook_url &&
		!v.hasError('webhook_url')
	) {
		v.add('webhook_url', 'The webhook url field is required when is webhook active is true.');
	}
	if (
		(touched('phone_number_id') || touched('type')) &&
		record.phone_number_id != null &&
		!v.hasError('phone_number_id')
	) {
		const number = state.phoneNumbers.find((p) => p.id === record.phone_number_id);
		if (!number) {
			v.add('phone_number_id', 'The selected phone number id is invalid.');
		} else if (record.type === 'inbound') {
			if (number.type === 'caller_id') {
				v.add('phone_number_id', 'Caller ID numbers cannot be assigned to inbound assistants.');
			} else if (
				state.assistants.some(
					(a) =>
						a.id !== (existing && existing.id) &&
						a.type === 'inbound' &&
						a.phone_number_id === number.id,
				)
			) {
				v.add(
					'phone_number_id',
					'This phone number is already assigned to another inbound assistant.',
				);
			}
		}
	}
	if (touched('tool_ids')) {
		values.tool_ids.forEach((id, i) => {
			const r = v.check(`tool_ids.${i}`, { type: 'integer', required: true }, id, true);
			if (r.ok && !state.tools.some((t) => t.id === r.value))
				v.add(`tool_ids.${i}`, `The selected tool_ids.${i} is invalid.`);
			if (r.ok) values.tool_ids[i] = r.value;
		});
		record.tool_ids = [...new Set(values.tool_ids)];
	}
	if (
		touched('folder_id') &&
		values.folder_id !== null &&
		!(state.folders || []).some((f) => f.id === values.folder_id)
	) {
		v.add('folder_id', 'The selected folder id is invalid.');
	}
	if (touched('label_ids')) {
		values.label_ids.forEach((id, i) => {
			const r = v.check(`label_ids.${i}`, { type: 'integer', required: true }, id, true);
			if (r.ok && !(state.labels || []).some((l) => l.id === r.value))
				v.add(`label_ids.${i}`, `The selected label_ids.${i} is invalid.`);
			if (r.ok) values.label_ids[i] = r.value;
		});
		record.label_ids = [...new Set(values.label_ids)];
	}
	if (touched('filler_config') && values.filler_config !== null) {
		for (const [kind, phrases] of Object.entries(values.filler_config)) {
			if (!FILLER_KINDS.includes(kind))
				v.add(`filler_config.${kind}`, `The filler_config.${kind} field is not allowed.`);
			else if (!Array.isArray(phrases) || phrases.some((p) => typeof p !== 'string')) {
				v.add(`filler_config.${kind}`, `The filler_config.${kind} must be an array of strings.`);
			}
		}
	}
	if (touched('tools')) record.tools = validateBuiltinTools(v, values.tools);
	if (touched('post_call_schema'))
		record.post_call_schema = validatePostCallSchema(v, values.post_call_schema);

	v.throwIfFailed();
	return record;
}

function assistantIdFromBody(body, { webhookUrl }) {
	const v = new Validator(body, INVALID);
	const id = v.check('assistant_id', { required: true, type: 'integer' });
	const url = webhookUrl
		? v.check('webhook_url', { required: true, type: 'url', max: 2048 })
		: null;
	v.throwIfFailed();
	return { id: id.value, webhookUrl: url && url.value };
}

function ownAssistantOr404(state, id) {
	const a = id === null ? null : findAssistant(state, id);
	if (!a) throw new HttpError(404, { message: 'Assistant not found' });
	return a;
}

function register(router) {
	router.get('/api/user/assistants/get', (ctx) => {
		const v = new Validator(ctx.query, INVALID);
		const p = pageParams(v, ctx.query);
		v.throwIfFailed();
		const items = [...ctx.state.assistants].sort((a, b) => a.id - b.id);
		return { status: 200, body: paginate(ctx, items, p, (a) => present(ctx.state, a)) };
	});

	router.get('/api/user/assistants/outbound', ({ state }) => ({
		status: 200,
		body: state.assistants.filter((a) => a.type === 'outbound').map((a) => present(state, a)),
	}));

	router.post('/api/user/assistant', ({ state, body }) => {
		const record = buildAssistant(state, isPlainObject(body) ? body : {}, null);
		const now = iso();
		const assistant = {
			...record,
			id: nextId(state, 'assistants'),
			uuid: uuid(),
			status: 'inactive',
			inbound_webhook_url: null,
			created_at: now,
			updated_at: now,
		};
		state.assistants.push(assistant);
		return created('Assistant created successfully', summary(assistant));
	});

	router.put('/api/user/assistant/:id', ({ state, params, body }) => {
		const existing = ownAssistantOr404(state, intId(params.id));
		const record = buildAssistant(state, isPlainObject(body) ? body : {}, existing);
		Object.assign(existing, record, { status: 'active', updated_at: iso() });
		return {
			status: 200,
			body: { message: 'Assistant updated successfully', data: summary(existing) },
		};
	});

	router.delete('/api/user/assistant/:id', ({ state, params }) => {
		const existing = ownAssistantOr404(state, intId(params.id));
		state.assistants.splice(state.assistants.indexOf(existing), 1);
		return { status: 200, body: { message: 'Assistant deleted successfully' } };
	});

	router.post('/api/user/assistants/enable-inbound-webhook', ({ state, body }) => {
		const { id, webhookUrl } = assistantIdFromBody(body, { webhookUrl: true });
		const a = ownAssistantOr404(state, id);
		a.inbound_webhook_url = webhookUrl;
		a.updated_at = iso();
		return { status: 200, body: { message: 'Inbound webhook enabled successfully', data: [] } };
	});

	router.post('/api/user/assistants/disable-inbound-webhook', ({ state, body }) => {
		const { id } = assistantIdFromBody(body, { webhookUrl: false });
		const a = ownAssistantOr404(state, id);
		a.inbound_webhook_url = null;
		a.updated_at = iso();
		return { status: 200, body: { message: 'Inbound webhook disabled successfully', data: [] } };
	});

	router.post('/api/user/assistants/enable-webhook', ({ state, body }) => {
		const { id, webhookUrl } = assistantIdFromBody(body, { webhookUrl: true });
		const a = ownAssistantOr404(state, id);
		a.is_webhook_active = true;
		a.webhook_url = webhookUrl;
		a.updated_at = iso();
		return { status: 200, body: { message: 'Webhook enabled successfully', data: [] } };
	});

	router.post('/api/user/assistants/enable-conversation-ended-webhook', ({ state, body }) => {
		const { id, webhookUrl } = assistantIdFromBody(body, { webhookUrl: true });
		const a = ownAssistantOr404(state, id);
		a.conversation_ended_webhook_url = webhookUrl;
		a.updated_at = iso();
		return {
			status: 200,
			body: { message: 'Conversation ended webhook enabled successfully', data: [] },
		};
	});

	router.post('/api/user/assistants/disable-conversation-ended-webhook', ({ state, body }) => {
		const { id } = assistantIdFromBody(body, { webhookUrl: false });
		const a = ownAssistantOr404(state, id);
		a.conversation_ended_webhook_url = null;
		a.updated_at = iso();
		return {
			status: 200,
			body: { message: 'Conversation ended webhook disabled successfully', data: [] },
		};
	});

	router.post('/api/user/assistants/disable-webhook', ({ state, body }) => {
		const { id } = assistantIdFromBody(body, { webhookUrl: false });
		const a = ownAssistantOr404(state, id);
		a.is_webhook_active = false;
		a.updated_at = iso();
		return { status: 200, body: { message: 'Webhook disabled successfully', data: [] } };
	});
}

module.exports = { register, findAssistant, buildAssistant };
