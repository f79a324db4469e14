import type { INodeProperties } from 'n8n-workflow';

import { decimalRangeField, keyValueCollection } from '../../../descriptions/fields';

import { FILLER_KINDS, FILLER_EXAMPLES, ONLY_PIPELINE, ONLY_REALTIME } from './constants';

export const callFlow: INodeProperties[] = [
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
	decimalRangeField('LLM Temperature', 'llm_temperature', 0, 1, 0.1),
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
	decimalRangeField('Endpoint Sensitivity', 'endpoint_sensitivity', 0, 5, 0.5),
	decimalRangeField('Interrupt Sensitivity', 'interrupt_sensitivity', 0, 5, 0.5),
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
