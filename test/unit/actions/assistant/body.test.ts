import { add, multi, pipe, update } from './fixtures';
import { itRefuses } from './refusals';

/**
 * body.ts: each field converted and checked (IDs, ranges from the fields'
 * typeOptions, lengths, enums, time zones, tools, post-call schema), reached
 * through Create and Update.
 */
describe('Assistant → Create and Update: the body', () => {
	itRefuses([
		['name over 255', { ...pipe, name: 'n'.repeat(256) }, 'Name is too long'],
		[
			'language not a number',
			{ ...pipe, languageId: 'English' },
			'Language must be a positive whole number',
		],
		[
			'timezone an offset',
			{ ...pipe, timezone: '+01:00' },
			'Timezone must be a region/city time zone name',
		],
		[
			'initial message over 200',
			{ ...pipe, initialMessage: 'x'.repeat(201) },
			'Initial Message is too long: 201 characters, at most 200',
		],
		['unknown type', { ...pipe, type: 'web' }, 'Type must be one of inbound, outbound'],
		[
			'webhook URL invalid',
			add(pipe, { webhook_url: 'hooks.example' }),
			'Webhook URL must be a valid http(s) URL',
		],
		[
			'speech speed 0.6',
			add(pipe, { speech_speed: 0.6 }),
			'Speech Speed must be a number from 0.7 to 1.2',
		],
		[
			'speech speed 1.3',
			add(pipe, { speech_speed: 1.3 }),
			'Speech Speed must be a number from 0.7 to 1.2',
		],
		[
			'voice stability 1.5',
			add(pipe, { voice_stability: 1.5 }),
			'Voice Stability must be a number from 0 to 1',
		],
		[
			'temperature -0.1',
			add(pipe, { llm_temperature: -0.1 }),
			'LLM Temperature must be a number from 0 to 1',
		],
		[
			'max duration 10',
			add(pipe, { max_duration: 10 }),
			'Max Duration must be a whole number from 20 to 1200',
		],
		[
			'max duration 1201',
			add(pipe, { max_duration: 1201 }),
			'Max Duration must be a whole number from 20 to 1200',
		],
		[
			'max silence 400',
			add(pipe, { max_silence_duration: 400 }),
			'Max Silence Duration must be a whole number from 1 to 360',
		],
		[
			'initial silence 121',
			add(pipe, { max_initial_silence_duration: 121 }),
			'Max Initial Silence Duration must be a whole number from 1 to 120',
		],
		[
			'ringing time 61',
			add(pipe, { ringing_time: 61 }),
			'Ringing Time must be a whole number from 1 to 60',
		],
		[
			'reengagement interval 5',
			add(pipe, { reengagement_interval: 5 }),
			'Reengagement Interval must be a whole number from 7 to 600',
		],
		[
			'reengagement prompt over 1000',
			add(pipe, { reengagement_prompt: 'p'.repeat(1001) }),
			'Reengagement Prompt is too long',
		],
		[
			'voicemail message over 1000',
			add(pipe, { voice_mail_message: 'v'.repeat(1001) }),
			'Voicemail Message is too long',
		],
		[
			'endpoint sensitivity 6',
			add(pipe, { endpoint_sensitivity: 6 }),
			'Endpoint Sensitivity must be a number from 0 to 5',
		],
		[
			'interrupt sensitivity -1',
			add(pipe, { interrupt_sensitivity: -1 }),
			'Interrupt Sensitivity must be a number from 0 to 5',
		],
		[
			'min interrupt words 11',
			add(pipe, { min_interrupt_words: 11 }),
			'Min Interrupt Words must be a whole number from 0 to 10',
		],
		[
			'min interrupt words 1.5',
			add(pipe, { min_interrupt_words: 1.5 }),
			'Min Interrupt Words must be a whole number from 0 to 10',
		],
		[
			'ambient volume 2',
			add(pipe, { ambient_sound_volume: 2 }),
			'Ambient Sound Volume must be a number from 0 to 1',
		],
		[
			'unknown ambient sound',
			add(pipe, { ambient_sound: 'beach' }),
			'Ambient Sound must be one of',
		],
		[
			'unknown endpoint type',
			add(pipe, { endpoint_type: 'manual' }),
			'Endpoint Type must be one of vad, ai',
		],
		[
			'turn detection 1.2',
			add(multi, { turn_detection_threshold: 1.2 }),
			'Turn Detection Threshold must be a number from 0 to 1',
		],
		[
			'schema name too short',
			add(pipe, {
				post_call_schema: { field: [{ name: 'ok', type: 'string', description: 'abc' }] },
			}),
			'Post-Call Schema → Field 1 → Name must be 3-16',
		],
		[
			'schema name upper case',
			add(pipe, {
				post_call_schema: { field: [{ name: 'Budget', type: 'string', description: 'abc' }] },
			}),
			'Post-Call Schema → Field 1 → Name must be 3-16',
		],
		[
			'schema type boolean',
			add(pipe, {
				post_call_schema: { field: [{ name: 'budget', type: 'boolean', description: 'abc' }] },
			}),
			'Post-Call Schema → Field 1 → Type must be one of string, number, bool',
		],
		[
			'schema description short',
			add(pipe, {
				post_call_schema: { field: [{ name: 'budget', type: 'number', description: 'ab' }] },
			}),
			'Post-Call Schema → Field 1 → Description must be 3-255 characters',
		],
		[
			'transfer without number',
			add(pipe, { tools: { tool: [{ type: 'call_transfer', description: 'x' }] } }),
			'Built-in Tools → Tool 1 (call transfer) needs a Phone Number',
		],
		[
			'calendar without key',
			add(pipe, {
				tools: { tool: [{ type: 'calendar_integration', calendar_event_slug: 'demo' }] },
			}),
			'needs a Calendar API Key',
		],
		[
			'calendar without slug',
			add(pipe, { tools: { tool: [{ type: 'calendar_integration', calendar_api_key: 'k' }] } }),
			'needs a Calendar Event Slug',
		],
		[
			'update to pipeline with prompt knowledge ok but speed out of range',
			update({ speech_speed: 2 }, { mode: 'pipeline' }),
			'Speech Speed must be a number from 0.7 to 1.2',
		],
	]);
});
