import type { INodeProperties } from 'n8n-workflow';

import { keyValueCollection } from '../../descriptions/fields';

/**
 * The assistant's optional configuration fields (the API contract's
 * configuration table, see docs/api.md, Assistant), by their API names, written out as the editor shows them. Create
 * and Update place them in one collection each (n8n sorts a collection's
 * options by name); here they are grouped the way a person thinks of them.
 * Ranges live in `typeOptions` and are checked from there (body.ts).
 */

export const MODES = ['pipeline', 'multimodal', 'dualplex'] as const;
export const ASSISTANT_TYPES = ['inbound', 'outbound'] as const;
export const AMBIENT_SOUNDS = [
	'cafe',
	'city',
	'crowded_room',
	'forest',
	'nature',
	'off',
	'office',
] as const;
export const BUILTIN_TOOL_TYPES = [
	'calendar_integration',
	'call_transfer',
	'dtmf_input',
	'end_call',
] as const;
export const KNOWLEDGEBASE_MODES = ['function_call', 'prompt'] as const;
export const ENDPOINT_TYPES = ['vad', 'ai'] as const;
export const SCHEMA_TYPES = ['string', 'number', 'bool'] as const;
export const FILLER_KINDS = ['negative', 'neutral', 'positive', 'question'] as const;
const FILLER_EXAMPLES: Record<(typeof FILLER_KINDS)[number], string> = {
	negative: 'e.g. Oh, I see.',
	neutral: 'e.g. Let me check that.',
	positive: 'e.g. Great!',
	question: 'e.g. Good question.',
};

/** `mode` values under which a field is shown; `keep` is the update's "Keep Current". */
const ONLY_PIPELINE = { show: { '/mode': ['pipeline', 'keep'] } };
const ONLY_REALTIME = { show: { '/mode': ['multimodal', 'dualplex', 'keep'] } };

const voice: INodeProperties[] = [
	{
		displayName: 'Synthesizer Provider Name or ID',
		name: 'synthesizer_provider_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSynthesizerProviders' },
		default: '',
		description:
			'Text-to-speech provider (default: chosen by language). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'TTS Emotion',
		name: 'tts_emotion_enabled',
		type: 'boolean',
		default: true,
		description: 'Whether the voice expresses emotions',
	},
	{
		displayName: 'Voice Stability',
		name: 'voice_stability',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 0.7,
		description: '0-1, default 0.7',
	},
	{
		displayName: 'Voice Similarity',
		name: 'voice_similarity',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 0.5,
		description: '0-1, default 0.5',
	},
	{
		displayName: 'Speech Speed',
		name: 'speech_speed',
		type: 'number',
		typeOptions: { minValue: 0.7, maxValue: 1.2, numberPrecision: 2 },
		default: 1,
		description: '0.7-1.2, default 1',
	},
	{
		displayName: 'Ambient Sound',
		name: 'ambient_sound',
		type: 'options',
		default: 'off',
		description: 'Background sound during calls',
		options: [
			{ name: 'Cafe', value: 'cafe' },
			{ name: 'City', value: 'city' },
			{ name: 'Crowded Room', value: 'crowded_room' },
			{ name: 'Forest', value: 'forest' },
			{ name: 'Nature', value: 'nature' },
			{ name: 'Off', value: 'off' },
			{ name: 'Office', value: 'office' },
		],
	},
	{
		displayName: 'Ambient Sound Volume',
		name: 'ambient_sound_volume',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 0.5,
		description: '0-1, default 0.5',
	},
];

const callFlow: INodeProperties[] = [
	{
		displayName: 'System Prompt',
		name: 'system_prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: 'Behaviour and personality of the assistant',
	},
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		default: '',
		placeholder: 'e.g. Europe/Berlin',
		description: 'Region/city time zone name such as Europe/Berlin (not UTC or an offset)',
	},
	{
		displayName: 'Secondary Language Names or IDs',
		name: 'secondary_language_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getLanguages' },
		default: [],
		description:
			'Further languages the assistant detects and switches to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Chat LLM Fallback Name or ID',
		name: 'chat_llm_fallback_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getLlmModels' },
		default: '',
		description:
			'Fallback LLM for tool calls (multimodal and dualplex only). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: ONLY_REALTIME,
	},
	{
		displayName: 'LLM Temperature',
		name: 'llm_temperature',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 0.1,
		description: '0-1, default 0.1',
	},
	{
		displayName: 'Transcriber Provider Name or ID',
		name: 'transcriber_provider_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTranscriberProviders' },
		default: '',
		description:
			'Speech-to-text provider (pipeline only; default: chosen by language). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: ONLY_PIPELINE,
	},
	{
		displayName: 'Wait for Customer',
		name: 'wait_for_customer',
		type: 'boolean',
		default: false,
		description: 'Whether the assistant waits for the customer to speak first',
	},
	{
		displayName: 'Allow Interruptions',
		name: 'allow_interruptions',
		type: 'boolean',
		default: true,
		description:
			'Whether the caller can interrupt the assistant (always on in multimodal and dualplex)',
		displayOptions: ONLY_PIPELINE,
	},
	{
		displayName: 'Fillers',
		name: 'fillers',
		type: 'boolean',
		default: false,
		description:
			'Whether the assistant uses filler words while thinking (pipeline only: in multimodal and dualplex mode it can only be turned off)',
	},
	{
		displayName: 'Filler Phrases',
		name: 'filler_config',
		type: 'collection',
		placeholder: 'Add Phrases',
		default: {},
		description:
			'Phrases the assistant says while thinking, by the mood of the moment, one per line (pipeline only; replaces the current phrases)',
		displayOptions: ONLY_PIPELINE,
		options: FILLER_KINDS.map((kind) => ({
			displayName: kind.charAt(0).toUpperCase() + kind.slice(1),
			name: kind,
			type: 'string' as const,
			typeOptions: { rows: 3 },
			default: '',
			placeholder: FILLER_EXAMPLES[kind],
			description: `Phrases for ${kind} moments, one per line`,
		})),
	},
	{
		displayName: 'Endpoint Type',
		name: 'endpoint_type',
		type: 'options',
		default: 'vad',
		description: "How the end of the caller's turn is detected",
		options: [
			{ name: 'AI', value: 'ai' },
			{ name: 'VAD', value: 'vad' },
		],
	},
	{
		displayName: 'Endpoint Sensitivity',
		name: 'endpoint_sensitivity',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 5, numberPrecision: 2 },
		default: 0.5,
		description: '0-5, default 0.5',
	},
	{
		displayName: 'Interrupt Sensitivity',
		name: 'interrupt_sensitivity',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 5, numberPrecision: 2 },
		default: 0.5,
		description: '0-5, default 0.5',
	},
	{
		displayName: 'Min Interrupt Words',
		name: 'min_interrupt_words',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: 0,
		description: '0-10',
	},
	{
		displayName: 'Turn Detection Threshold',
		name: 'turn_detection_threshold',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 0,
		description: '0-1 (multimodal and dualplex only)',
		displayOptions: ONLY_REALTIME,
	},
	{
		displayName: 'Reengagement Interval',
		name: 'reengagement_interval',
		type: 'number',
		typeOptions: { minValue: 7, maxValue: 600 },
		default: 30,
		description: '7-600 seconds, default 30',
	},
	{
		displayName: 'Reengagement Prompt',
		name: 'reengagement_prompt',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'What the assistant says after silence, at most 1000 characters',
	},
	{
		displayName: 'Noise Cancellation',
		name: 'enable_noise_cancellation',
		type: 'boolean',
		default: true,
		description: 'Whether background noise is filtered',
	},
	{
		displayName: 'Record Calls',
		name: 'record',
		type: 'boolean',
		default: false,
		description: 'Whether calls are recorded',
	},
	{
		displayName: 'Phone Number Name or ID',
		name: 'phone_number_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getAssignablePhoneNumbers' },
		default: '',
		description:
			'Phone number of the assistant (numbers the assistant type can take). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		...keyValueCollection(
			'Variables',
			'variables',
			'Custom values referenced in prompts as {{variable_name}}; on update they replace all existing variables',
		),
	},
];

const limits: INodeProperties[] = [
	{
		displayName: 'Max Duration',
		name: 'max_duration',
		type: 'number',
		typeOptions: { minValue: 20, maxValue: 1200 },
		default: 600,
		description: '20-1200 seconds, default 600',
	},
	{
		displayName: 'Max Silence Duration',
		name: 'max_silence_duration',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 360 },
		default: 40,
		description: '1-360 seconds, default 40',
	},
	{
		displayName: 'Max Initial Silence Duration',
		name: 'max_initial_silence_duration',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 120 },
		default: 1,
		description: '1-120 seconds',
	},
	{
		displayName: 'Ringing Time',
		name: 'ringing_time',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 60 },
		default: 30,
		description: '1-60 seconds, default 30',
	},
];

const voicemail: INodeProperties[] = [
	{
		displayName: 'End Call on Voicemail',
		name: 'end_call_on_voicemail',
		type: 'boolean',
		default: true,
		description: 'Whether the call ends when a voicemail answers',
	},
	{
		displayName: 'Voicemail Message',
		name: 'voice_mail_message',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'Message left on a voicemail, at most 1000 characters',
	},
];

const knowledgeAndTools: INodeProperties[] = [
	{
		displayName: 'Knowledgebase Name or ID',
		name: 'knowledgebase_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getKnowledgebases' },
		default: '',
		description:
			'Knowledgebase the assistant uses. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
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
	{
		displayName: 'Mid Call Tool Names or IDs',
		name: 'tool_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTools' },
		default: [],
		description:
			'Mid call tools the assistant may call. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Built-in Tools',
		name: 'tools',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Tool',
		default: {},
		description:
			'Built-in abilities: transfer the call, end it, send keypad tones, book appointments',
		options: [
			{
				displayName: 'Tool',
				name: 'tool',
				values: [
					{
						displayName: 'Availability Timezone',
						name: 'timezone',
						type: 'string',
						default: '',
						description:
							"Time zone of the transfer target's availability, a region/city name such as Europe/Berlin",
						displayOptions: { show: { type: ['call_transfer'] } },
					},
					{
						displayName: 'Calendar API Key',
						name: 'calendar_api_key',
						type: 'string',
						typeOptions: { password: true },
						default: '',
						description: 'API key of the calendar (required)',
						displayOptions: { show: { type: ['calendar_integration'] } },
					},
					{
						displayName: 'Calendar Event Slug',
						name: 'calendar_event_slug',
						type: 'string',
						default: '',
						description: 'Event type to book (required)',
						displayOptions: { show: { type: ['calendar_integration'] } },
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: 'When the assistant should use the tool',
					},
					{
						displayName: 'Dynamic Number',
						name: 'custom',
						type: 'boolean',
						default: false,
						description: 'Whether the AI may determine the number itself',
						displayOptions: { show: { type: ['call_transfer'] } },
					},
					{
						displayName: 'Phone Number',
						name: 'phone_number',
						type: 'string',
						default: '',
						description: 'Number to transfer to (required)',
						displayOptions: { show: { type: ['call_transfer'] } },
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'end_call',
						options: [
							{ name: 'Calendar Integration', value: 'calendar_integration' },
							{ name: 'Call Transfer', value: 'call_transfer' },
							{ name: 'DTMF Input', value: 'dtmf_input' },
							{ name: 'End Call', value: 'end_call' },
						],
					},
				],
			},
		],
	},
];

const webhook: INodeProperties[] = [
	{
		displayName: 'Post-Call Webhook Active',
		name: 'is_webhook_active',
		type: 'boolean',
		default: false,
		description:
			'Whether the post-call webhook is sent (to the Webhook URL the assistant has or gets)',
	},
	{
		displayName: 'Webhook URL',
		name: 'webhook_url',
		type: 'string',
		default: '',
		description: 'Target of post-call notifications; required when Post-Call Webhook Active is on',
	},
	{
		displayName: 'Webhook Only on Completed Calls',
		name: 'send_webhook_only_on_completed',
		type: 'boolean',
		default: true,
		description: 'Whether failed and no-answer calls send no webhook',
	},
	{
		displayName: 'Include Recording',
		name: 'include_recording_in_webhook',
		type: 'boolean',
		default: true,
		description: 'Whether the recording URL is part of the webhook',
	},
];

const chats: INodeProperties[] = [
	{
		displayName: 'Conversation Inactivity Timeout',
		name: 'conversation_inactivity_timeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440 },
		default: 30,
		description:
			'1-1440 minutes, default 30: a widget or WhatsApp chat ends after this much silence',
	},
	{
		displayName: 'Conversation-Ended Webhook URL',
		name: 'conversation_ended_webhook_url',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/hooks/chat-ended',
		description:
			'Address that receives the transcript when a chat ends (same setting as Enable Conversation-Ended Webhook)',
	},
	{
		displayName: 'Re-Trigger Conversation-Ended Webhook',
		name: 'conversation_ended_retrigger',
		type: 'boolean',
		default: false,
		description:
			'Whether a chat that goes on after it ended sends the conversation-ended webhook again when it ends again',
	},
];

const organisation: INodeProperties[] = [
	{
		displayName: 'Folder Name or ID',
		name: 'folder_id',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getFolders' },
		default: '',
		description:
			'Folder the assistant is filed in (one at most). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Label Names or IDs',
		name: 'label_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getLabels' },
		default: [],
		description:
			'Labels of the assistant; they replace the current labels. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

const postCallAnalysis: INodeProperties[] = [
	{
		displayName: 'Post-Call Evaluation',
		name: 'post_call_evaluation',
		type: 'boolean',
		default: true,
		description: 'Whether calls are evaluated after they end',
	},
	{
		displayName: 'Post-Call Schema',
		name: 'post_call_schema',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Field',
		default: {},
		description: 'Values extracted from each call after it ends',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						description: '3-16 characters: lowercase letters, digits and underscores',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						default: 'string',
						options: [
							{ name: 'Bool', value: 'bool' },
							{ name: 'Number', value: 'number' },
							{ name: 'String', value: 'string' },
						],
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: '3-255 characters: what to extract',
					},
				],
			},
		],
	},
];

/**
 * The groups, in the order a person goes through an assistant's settings, with
 * the prefix that groups them in the editor ("Voice: Speech Speed"): n8n lists
 * a collection's options by name, so fields of one group stand together.
 */
export const FIELD_GROUPS: Array<{ prefix: string; fields: INodeProperties[] }> = [
	{ prefix: 'Voice', fields: voice },
	{ prefix: 'Call Flow', fields: callFlow },
	{ prefix: 'Limits', fields: limits },
	{ prefix: 'Voicemail', fields: voicemail },
	{ prefix: 'Knowledge and Tools', fields: knowledgeAndTools },
	{ prefix: 'Webhook', fields: webhook },
	{ prefix: 'Post-Call Analysis', fields: postCallAnalysis },
	{ prefix: 'Chats', fields: chats },
	{ prefix: 'Organization', fields: organisation },
];

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

function grouped(prefix: string, fields: INodeProperties[]): INodeProperties[] {
	// "Voice: Stability", not "Voice: Voice Stability"
	const own = (name: string) =>
		name.startsWith(`${prefix} `) ? name.slice(prefix.length + 1) : name;
	return fields.map((field) => ({ ...field, displayName: `${prefix}: ${own(field.displayName)}` }));
}

/** Every optional configuration field, labelled with its group and sorted by label (so grouped). */
export function configurationFields(): INodeProperties[] {
	return FIELD_GROUPS.flatMap((group) => grouped(group.prefix, group.fields)).sort(byName);
}

/** The fields of Update: the configuration fields and the ones Create asks for as parameters of their own. */
export function updateFields(): INodeProperties[] {
	return [...configurationFields(), ...grouped('Assistant', updateOnlyFields)].sort(byName);
}

/** Fields of the configuration that only Update offers (Create asks for them as required parameters). */
export const updateOnlyFields: INodeProperties[] = [
	{
		displayName: 'Initial Message',
		name: 'initial_message',
		type: 'string',
		default: '',
		description: 'At most 200 characters',
	},
	{
		displayName: 'Language ID',
		name: 'language_id',
		type: 'number',
		default: 0,
		description: 'Main language (ID from Assistant → Get Languages)',
	},
	{
		displayName: 'LLM Model ID',
		name: 'llm_model_id',
		type: 'number',
		default: 0,
		description: 'Language model (pipeline mode)',
		displayOptions: ONLY_PIPELINE,
	},
	{
		displayName: 'Multimodal Model ID',
		name: 'multimodal_model_id',
		type: 'number',
		default: 0,
		description: 'Model of the multimodal or dualplex mode',
		displayOptions: ONLY_REALTIME,
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'At most 255 characters',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		default: 'outbound',
		options: [
			{ name: 'Inbound', value: 'inbound' },
			{ name: 'Outbound', value: 'outbound' },
		],
	},
	{
		displayName: 'Voice ID',
		name: 'voice_id',
		type: 'number',
		default: 0,
		description: 'Voice (ID from Assistant → Get Voices); must suit the engine mode',
	},
];

/**
 * The label of every API field as the editor shows it, for messages. Fields
 * Create asks for as parameters of their own are named here too.
 */
export const LABELS: Record<string, string> = {
	...Object.fromEntries(
		[...FIELD_GROUPS.flatMap((group) => group.fields), ...updateOnlyFields].map((f) => [
			f.name,
			f.displayName
				.replace(/ (Name or ID|Names or IDs|ID)$/, '')
				.replace(/^Mid Call Tool$/, 'Mid Call Tools'),
		]),
	),
	language_id: 'Language',
	voice_id: 'Voice',
	llm_model_id: 'LLM Model',
	multimodal_model_id: 'Multimodal Model',
	mode: 'Engine Mode',
};

/** Fields that can be cleared on update by sending null. */
export const NULLABLE = [
	'chat_llm_fallback_id',
	'conversation_ended_webhook_url',
	'folder_id',
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
export const COLLECTIONS = [
	'label_ids',
	'post_call_schema',
	'secondary_language_ids',
	'tool_ids',
	'tools',
];
