'use strict';
/**
 * Domain rules shared by seed data, routes and the control API: enumerations,
 * assistant defaults, knowledgebase status, labels and the factories of call and conversation
 * records.
 */
const { sqlTime, money, substitute, uuid } = require('./util');

const MODES = ['pipeline', 'multimodal', 'dualplex'];
const ASSISTANT_TYPES = ['inbound', 'outbound'];
/** Statuses of a call that has ended: it has a duration, a transcript and a recording. */
const ENDED_STATUSES = ['completed', 'ended', 'ended_by_customer', 'ended_by_assistant'];
/** Statuses that `send_webhook_only_on_completed` suppresses (SPEC: failed and no-answer calls). */
const UNSUCCESSFUL_CALL_STATUSES = ['failed', 'no-answer', 'busy'];
/** Every status of a call: still under way, ended, or unsuccessful. */
const CALL_STATUSES = [
	'initiated',
	'ringing',
	'in-progress',
	...ENDED_STATUSES,
	...UNSUCCESSFUL_CALL_STATUSES,
];
const CALL_TYPES = ['inbound', 'outbound', 'web'];
const CONVERSATION_TYPES = ['test', 'widget', 'whatsapp', 'api'];
const DOCUMENT_TYPES = ['website', 'pdf', 'txt', 'docx'];
const FILE_DOCUMENT_TYPES = ['pdf', 'txt', 'docx'];
const SEARCH_COUNTRIES = ['US', 'CA', 'GB', 'AU', 'IL', 'PL', 'FI', 'NL', 'DK', 'IT'];
const TOOL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const AMBIENT_SOUNDS = ['off', 'office', 'city', 'forest', 'crowded_room', 'cafe', 'nature'];
const BUILTIN_TOOL_TYPES = ['call_transfer', 'end_call', 'dtmf_input', 'calendar_integration'];

const DOCUMENT_TYPE_LABELS = { website: 'Website', pdf: 'PDF', txt: 'Text', docx: 'Word Document' };
const STATUS_LABELS = {
	empty: 'Empty',
	processing: 'Processing',
	active: 'Active',
	failed: 'Failed',
};
const PHONE_TYPE_LABELS = { normal: 'Normal', sip: 'SIP', caller_id: 'Caller ID' };

/** Defaults of the optional configuration fields (SPEC's configuration table). */
const ASSISTANT_DEFAULTS = {
	llm_model_id: null,
	multimodal_model_id: null,
	chat_llm_fallback_id: null,
	turn_detection_threshold: null,
	secondary_language_ids: [],
	knowledgebase_id: null,
	knowledgebase_mode: null,
	phone_number_id: null,
	tool_ids: [],
	tools: [],
	tts_emotion_enabled: true,
	voice_stability: 0.7,
	voice_similarity: 0.5,
	speech_speed: 1.0,
	llm_temperature: 0.1,
	synthesizer_provider_id: null,
	transcriber_provider_id: null,
	allow_interruptions: true,
	fillers: false,
	record: false,
	enable_noise_cancellation: true,
	wait_for_customer: false,
	max_duration: 600,
	max_silence_duration: 40,
	max_initial_silence_duration: null,
	ringing_time: 30,
	reengagement_interval: 30,
	reengagement_prompt: null,
	end_call_on_voicemail: true,
	voice_mail_message: null,
	endpoint_type: 'vad',
	endpoint_sensitivity: 0.5,
	interrupt_sensitivity: 0.5,
	min_interrupt_words: null,
	ambient_sound: null,
	ambient_sound_volume: 0.5,
	is_webhook_active: false,
	webhook_url: null,
	send_webhook_only_on_completed: true,
	include_recording_in_webhook: true,
	post_call_evaluation: true,
	post_call_schema: [],
	variables: {},
	folder_id: null,
	label_ids: [],
	filler_config: null,
	conversation_inactivity_timeout: 30,
	conversation_ended_retrigger: false,
	conversation_ended_webhook_url: null,
};

/** Providers "auto by language": pipeline uses both, dualplex only a synthesizer, multimodal none. */
function defaultProviders(state, mode, languageId) {
	const language = state.languages.find((l) => l.id === languageId);
	const synth = language
		? language.default_synthesizer_provider_id
		: state.synthesizerProviders[0].id;
	const trans = language
		? language.default_transcriber_provider_id
		: state.transcriberProviders[0].id;
	return {
		synthesizer_provider_id: mode === 'multimodal' ? null : synth,
		transcriber_provider_id: mode === 'pipeline' ? trans : null,
	};
}

/** Knowledgebase status from its documents: processing wins over failed, failed over active. */
function knowledgebaseStatus(state, kbId) {
	const docs = state.documents.filter((d) => d.knowledgebase_id === kbId);
	if (docs.length === 0) return 'empty';
	if (docs.some((d) => d.status === 'processing')) return 'processing';
	if (docs.some((d) => d.status === 'failed')) return 'failed';
	return 'active';
}

function assistantPhone(state, assistant) {
	if (!assistant || assistant.phone_number_id == null) return null;
	const number = state.phoneNumbers.find((p) => p.id === assistant.phone_number_id);
	return number ? number.phone_number : null;
}

function simpleTranscript(assistant, customerLine, vars) {
	const greeting = substitute(
		(assistant && assistant.initial_message) || 'Hello, how can I help you?',
		{
			...((assistant && assistant.variables) || {}),
			...(vars || {}),
		},
	);
	return [
		{ sender: 'bot', text: greeting },
		{
			sender: 'human',
			text: customerLine || 'Hi, I would like some information about your offer.',
		},
		{ sender: 'bot', text: 'Of course. I have noted your request and a colleague will follow up.' },
		{ sender: 'human', text: 'Great, thank you. Goodbye.' },
	];
}

function transcriptToString(items) {
	return items.map((i) => `${i.sender === 'bot' ? 'Assistant' : 'Customer'}: ${i.text}`).join('\n');
}

function transcriptToArray(items, startMs) {
	return items.map((i, n) => ({
		text: i.text,
		type: 'transcript',
		sender: i.sender,
		timestamp: Math.round((startMs / 1000 + n * 4.25) * 1e6) / 1e6,
	}));
}

/** Values the "AI" extracts for a post_call_schema. */
function extractVariables(assistant) {
	const out = {};
	for (const item of (assistant && assistant.post_call_schema) || []) {
		out[item.name] =
			item.type === 'number' ? 42 : item.type === 'bool' ? true : `simulated ${item.name}`;
	}
	return out;
}

/** Recordings are served by the simulator itself (a few bytes of audio/mpeg), on its own origin or, with `recordingHost`, on a second one. */
function recordingUrl(state, callId) {
	const base =
		(state.meta && (state.meta.recordingBaseUrl || state.meta.baseUrl)) || 'http://127.0.0.1';
	return `${base}/__sim/recordings/${callId}.mp3`;
}

/**
 * Builds (does not store) a call record. Every field is optional.
 */
function makeCall(state, o) {
	const assistant = o.assistant || null;
	const status = o.status || 'completed';
	const ended = ENDED_STATUSES.includes(status);
	const duration = o.duration !== undefined ? o.duration : ended ? 30 + ((o.id * 37) % 420) : 0;
	const createdMs = o.created_ms !== undefined ? o.created_ms : Date.now() - duration * 1000;
	const updatedMs = o.updated_ms !== undefined ? o.updated_ms : createdMs + duration * 1000;
	const campaign =
		o.campaign_id != null ? state.campaigns.find((c) => c.id === o.campaign_id) : null;
	const items = ended ? simpleTranscript(assistant, o.customer_line, o.input_variables) : [];
	const carrier = money((duration / 60) * 0.012);
	return {
		id: o.id,
		assistant_id: assistant ? assistant.id : null,
		assistant_name: assistant ? assistant.name : o.assistant_name || null,
		campaign_id: campaign ? campaign.id : null,
		lead_id: o.lead_id !== undefined ? o.lead_id : null,
		type: o.type || (assistant && assistant.type === 'inbound' ? 'inbound' : 'outbound'),
		status,
		duration,
		assistant_phone_number:
			o.assistant_phone !== undefined ? o.assistant_phone : assistantPhone(state, assistant),
		client_phone_number:
			o.customer_phone || `+1415555${String(1000 + (o.id % 9000)).padStart(4, '0')}`,
		transcript: o.transcript !== undefined ? o.transcript : transcriptToString(items),
		transcript_items: o.transcript_items || transcriptToArray(items, createdMs),
		variables: o.extracted_variables || (ended ? extractVariables(assistant) : {}),
		input_variables: o.input_variables || {},
		evaluation:
			o.evaluation ||
			(ended
				? { status: true, summary: 'The customer asked for information; follow-up promised.' }
				: {}),
		webhook_response: o.webhook_response !== undefined ? o.webhook_response : null,
		carrier_cost: carrier,
		total_cost: money(carrier + (duration / 60) * 0.09),
		answered_by: o.answered_by || (ended ? (o.id % 11 === 0 ? 'machine' : 'human') : 'unknown'),
		recording_url:
			o.recording_url !== undefined ? o.recording_url : ended ? recordingUrl(state, o.id) : null,
		created_at: sqlTime(createdMs),
		updated_at: sqlTime(updatedMs),
		created_ms: createdMs,
		updated_ms: updatedMs,
	};
}

/**
 * Builds (does not store) a chat conversation record: `fields` (its variables and messages, an
 * API conversation's external_identifier before them) stand between its type and its cost.
 */
function makeConversation(
	assistant,
	type,
	fields,
	{ id = uuid(), totalCost = 0, createdMs = Date.now(), updatedMs = createdMs } = {},
) {
	return {
		id,
		assistant_id: assistant.id,
		type,
		...fields,
		total_cost: totalCost,
		ai_enabled: true,
		created_at: sqlTime(createdMs),
		updated_at: sqlTime(updatedMs),
		created_ms: createdMs,
	};
}

module.exports = {
	MODES,
	ASSISTANT_TYPES,
	CALL_STATUSES,
	CALL_TYPES,
	CONVERSATION_TYPES,
	UNSUCCESSFUL_CALL_STATUSES,
	ENDED_STATUSES,
	DOCUMENT_TYPES,
	FILE_DOCUMENT_TYPES,
	SEARCH_COUNTRIES,
	TOOL_METHODS,
	AMBIENT_SOUNDS,
	BUILTIN_TOOL_TYPES,
	DOCUMENT_TYPE_LABELS,
	STATUS_LABELS,
	PHONE_TYPE_LABELS,
	ASSISTANT_DEFAULTS,
	defaultProviders,
	knowledgebaseStatus,
	assistantPhone,
	simpleTranscript,
	transcriptToString,
	transcriptToArray,
	extractVariables,
	recordingUrl,
	makeCall,
	makeConversation,
};
