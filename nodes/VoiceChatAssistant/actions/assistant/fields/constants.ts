/** The enums of the assistant's fields and the display rules by engine mode. */
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
export const FILLER_EXAMPLES: Record<(typeof FILLER_KINDS)[number], string> = {
	negative: 'e.g. Oh, I see.',
	neutral: 'e.g. Let me check that.',
	positive: 'e.g. Great!',
	question: 'e.g. Good question.',
};

/** `mode` values under which a field is shown; `keep` is the update's "Keep Current". */
export const ONLY_PIPELINE = { show: { '/mode': ['pipeline', 'keep'] } };
export const ONLY_REALTIME = { show: { '/mode': ['multimodal', 'dualplex', 'keep'] } };
