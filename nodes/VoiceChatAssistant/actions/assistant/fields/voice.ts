import type { INodeProperties } from 'n8n-workflow';

export const voice: INodeProperties[] = [
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
