import type { IDataObject } from 'n8n-workflow';

/**
 * The parameters and request bodies shared by the assistant's Create, Update
 * and field-rule (body.ts, modeRules.ts) tests.
 */
export const record = {
	id: 9,
	name: 'Lisa',
	status: 'inactive',
	type: 'outbound',
	mode: 'pipeline',
};

export const base = {
	resource: 'assistant',
	operation: 'create',
	name: 'Lisa',
	type: 'outbound',
	languageId: 1,
	voiceId: '4',
	timezone: 'Europe/Berlin',
	initialMessage: 'Hello {{customer_name}}!',
	systemPrompt: 'You are Lisa.',
};
export const minimal: Record<string, IDataObject> = {
	pipeline: { ...base, mode: 'pipeline', llmModelId: 2 },
	multimodal: { ...base, mode: 'multimodal', multimodalModelId: 10 },
	dualplex: { ...base, mode: 'dualplex', multimodalModelId: 20 },
};
export const requiredBody = (mode: string) => ({
	name: 'Lisa',
	mode,
	type: 'outbound',
	language_id: 1,
	voice_id: 4,
	timezone: 'Europe/Berlin',
	initial_message: 'Hello {{customer_name}}!',
	system_prompt: 'You are Lisa.',
	...(mode === 'pipeline'
		? { llm_model_id: 2 }
		: { multimodal_model_id: mode === 'multimodal' ? 10 : 20 }),
});
export const common = {
	ambient_sound: 'office',
	ambient_sound_volume: 0.3,
	enable_noise_cancellation: false,
	end_call_on_voicemail: false,
	endpoint_sensitivity: 2.5,
	endpoint_type: 'ai',
	include_recording_in_webhook: false,
	interrupt_sensitivity: 1,
	is_webhook_active: true,
	knowledgebase_id: 3,
	knowledgebase_mode: 'function_call',
	llm_temperature: 0.4,
	max_duration: 900,
	max_initial_silence_duration: 15,
	max_silence_duration: 60,
	min_interrupt_words: 2,
	phone_number_id: 6,
	post_call_evaluation: false,
	record: true,
	reengagement_interval: 45,
	reengagement_prompt: 'Are you still there?',
	ringing_time: 25,
	secondary_language_ids: [2, 3],
	send_webhook_only_on_completed: false,
	speech_speed: 1.1,
	synthesizer_provider_id: 1,
	tool_ids: [7],
	tts_emotion_enabled: false,
	voice_mail_message: 'Please call back.',
	voice_similarity: 0.6,
	voice_stability: 0.8,
	wait_for_customer: true,
	webhook_url: 'https://example.com/after-call',
};
/** The built-in tools of `fields`, as the body sends them (the parameter wraps them in `tool`). */
const tools = [
	{
		type: 'call_transfer',
		phone_number: '+4930123456',
		description: 'To sales',
		custom: false,
		timezone: 'Europe/Berlin',
	},
	{ type: 'end_call', description: 'When done' },
	{ type: 'dtmf_input', description: 'For menus' },
	{
		type: 'calendar_integration',
		calendar_api_key: 'cal_key',
		calendar_event_slug: 'demo',
		description: 'Book demos',
	},
];
const schemaField = {
	name: 'interested',
	type: 'bool',
	description: 'Whether the lead is interested',
};
export const fields = {
	...common,
	secondary_language_ids: ['2', '3'],
	tool_ids: ['7'],
	tools: { tool: tools },
	post_call_schema: { field: [schemaField] },
	variables: { values: [{ key: 'company', value: 'ACME' }] },
};
export const fieldsBody = {
	...common,
	tools,
	post_call_schema: [schemaField],
	variables: { company: 'ACME' },
};
export const modeExtras: Record<string, [object, object]> = {
	pipeline: [
		{
			fillers: true,
			transcriber_provider_id: '2',
			allow_interruptions: false,
			knowledgebase_mode: 'prompt',
		},
		{
			fillers: true,
			transcriber_provider_id: 2,
			allow_interruptions: false,
			knowledgebase_mode: 'prompt',
		},
	],
	multimodal: [
		{ turn_detection_threshold: 0.55, chat_llm_fallback_id: '1' },
		{ turn_detection_threshold: 0.55, chat_llm_fallback_id: 1 },
	],
	dualplex: [
		{ turn_detection_threshold: 0.2, chat_llm_fallback_id: '3' },
		{ turn_detection_threshold: 0.2, chat_llm_fallback_id: 3 },
	],
};

export const pipe = minimal.pipeline;
export const multi = minimal.multimodal;
export const dual = minimal.dualplex;
/** Create parameters with these Additional Fields. */
export const add = (params: object, additionalFields: object) => ({ ...params, additionalFields });
/** Update parameters of assistant 9 (engine mode kept) with these Update Fields. */
export const update = (updateFields: object, extra: object = {}) => ({
	resource: 'assistant',
	operation: 'update',
	assistantId: { __rl: true, mode: 'id', value: '9' },
	mode: 'keep',
	updateFields,
	...extra,
});
