import type { INodeProperties } from 'n8n-workflow';

import { decimalRangeField, optionsOfValues } from '../../../descriptions/fields';

import { AMBIENT_SOUNDS } from './constants';

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
	decimalRangeField('Voice Stability', 'voice_stability', 0, 1, 0.7),
	decimalRangeField('Voice Similarity', 'voice_similarity', 0, 1, 0.5),
	decimalRangeField('Speech Speed', 'speech_speed', 0.7, 1.2, 1),
	{
		displayName: 'Ambient Sound',
		name: 'ambient_sound',
		type: 'options',
		default: 'off',
		description: 'Background sound during calls',
		options: optionsOfValues(AMBIENT_SOUNDS),
	},
	decimalRangeField('Ambient Sound Volume', 'ambient_sound_volume', 0, 1, 0.5),
];
