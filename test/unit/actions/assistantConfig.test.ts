import nock from 'nock';

import { router } from '../../../nodes/VoiceChatAssistant/actions/router';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL, createContext } from '../../helpers/context';

const run = async (parameters: any) => (await router.call(createContext({ parameters }).context))[0];
const record = { id: 9, name: 'Lisa', status: 'inactive', type: 'outbound', mode: 'pipeline' };

const base = {
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
const minimal: Record<string, any> = {
	pipeline: { ...base, mode: 'pipeline', llmModelId: 2 },
	multimodal: { ...base, mode: 'multimodal', multimodalModelId: 10 },
	dualplex: { ...base, mode: 'dualplex', multimodalModelId: 20 },
};
const requiredBody = (mode: string) => ({
	name: 'Lisa',
	mode,
	type: 'outbound',
	language_id: 1,
	voice_id: 4,
	timezone: 'Europe/Berlin',
	initial_message: 'Hello {{customer_name}}!',
	system_prompt: 'You are Lisa.',
	...(mode === 'pipeline' ? { llm_model_id: 2 } : { multimodal_model_id: mode === 'multimodal' ? 10 : 20 }),
});
const common = {
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
const fields = {
	...common,
	secondary_language_ids: ['2', '3'],
	tool_ids: ['7'],
	tools: {
		tool: [
			{ type: 'call_transfer', phone_number: '+4930123456', description: 'To sales', custom: false, timezone: 'Europe/Berlin' },
			{ type: 'end_call', description: 'When done' },
			{ type: 'dtmf_input', description: 'For menus' },
			{ type: 'calendar_integration', calendar_api_key: 'cal_key', calendar_event_slug: 'demo', description: 'Book demos' },
		],
	},
	post_call_schema: { field: [{ name: 'interested', type: 'bool', description: 'Whether the lead is interested' }] },
	variables: { values: [{ key: 'company', value: 'ACME' }] },
};
const fieldsBody = {
	...common,
	tools: [
		{ type: 'call_transfer', phone_number: '+4930123456', description: 'To sales', custom: false, timezone: 'Europe/Berlin' },
		{ type: 'end_call', description: 'When done' },
		{ type: 'dtmf_input', description: 'For menus' },
		{ type: 'calendar_integration', calendar_api_key: 'cal_key', calendar_event_slug: 'demo', description: 'Book demos' },
	],
	post_call_schema: [{ name: 'interested', type: 'bool', description: 'Whether the lead is interested' }],
	variables: { company: 'ACME' },
};
const modeExtras: Record<string, [object, object]> = {
	pipeline: [{ fillers: true, transcriber_provider_id: '2', allow_interruptions: false, knowledgebase_mode: 'prompt' }, { fillers: true, transcriber_provider_id: 2, allow_interruptions: false, knowledgebase_mode: 'prompt' }],
	multimodal: [{ turn_detection_threshold: 0.55, chat_llm_fallback_id: '1' }, { turn_detection_threshold: 0.55, chat_llm_fallback_id: 1 }],
	dualplex: [{ turn_detection_threshold: 0.2, chat_llm_fallback_id: '3' }, { turn_detection_threshold: 0.2, chat_llm_fallback_id: 3 }],
};

describe('Assistant → Create and Update', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	describe.each(['pipeline', 'multimodal', 'dualplex'])('%s', (mode) => {
		it('minimal create sends exactly the required fields', async () => {
			const scope = nock(TEST_BASE_URL).post('/api/user/assistant', requiredBody(mode)).reply(201, { message: 'Assistant created', data: { ...record, mode } });
			expect(await run(minimal[mode])).toEqual([{ json: { ...record, mode, message: 'Assistant created' }, pairedItem: { item: 0 } }]);
			scope.done();
		});

		it('maximal create sends every field, converted', async () => {
			const [extraIn, extraOut] = modeExtras[mode];
			const scope = nock(TEST_BASE_URL)
				.post('/api/user/assistant', { ...requiredBody(mode), ...fieldsBody, ...extraOut })
				.reply(201, { message: 'Assistant created', data: { ...record, mode } });
			await run({ ...minimal[mode], additionalFields: { ...fields, ...extraIn } });
			scope.done();
		});
	});

	it('update clears three nullable fields and empties two lists', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/9', { name: 'Lisa 2', knowledgebase_id: null, phone_number_id: null, voice_mail_message: null, tool_ids: [], post_call_schema: [] })
			.reply(200, { message: 'Assistant updated', data: { ...record, status: 'active', name: 'Lisa 2' } });
		const output = await run({
			resource: 'assistant',
			operation: 'update',
			assistantId: { __rl: true, mode: 'id', value: '9' },
			mode: 'keep',
			updateFields: { name: 'Lisa 2' },
			clearFields: ['knowledgebase_id', 'phone_number_id', 'voice_mail_message'],
			emptyCollections: ['tool_ids', 'post_call_schema'],
		});
		expect(output[0].json).toEqual({ ...record, status: 'active', name: 'Lisa 2', message: 'Assistant updated' });
		scope.done();
	});

	it('update to another mode sends the mode and its model', async () => {
		const scope = nock(TEST_BASE_URL).put('/api/user/assistant/9', { mode: 'multimodal', multimodal_model_id: 11 }).reply(200, { message: 'ok', data: record });
		await run({ resource: 'assistant', operation: 'update', assistantId: { __rl: true, mode: 'id', value: '9' }, mode: 'multimodal', updateFields: { multimodal_model_id: 11 } });
		scope.done();
	});

	it('shows the service 422 field by field', async () => {
		nock(TEST_BASE_URL).post('/api/user/assistant').reply(422, { message: 'Validation failed', errors: { voice_id: ['The voice is not compatible with the engine mode.'] } });
		await expect(run(minimal.multimodal)).rejects.toThrow('Validation failed: voice_id: The voice is not compatible with the engine mode.');
	});

	const pipe = minimal.pipeline;
	const multi = minimal.multimodal;
	const dual = minimal.dualplex;
	const add = (params: any, additionalFields: object) => ({ ...params, additionalFields });
	const update = (updateFields: object, extra: object = {}) => ({
		resource: 'assistant', operation: 'update', assistantId: { __rl: true, mode: 'id', value: '9' }, mode: 'keep', updateFields, ...extra,
	});
	it.each([
		['missing name', { ...pipe, name: '' }, 'Name is required'],
		['name over 255', { ...pipe, name: 'n'.repeat(256) }, 'Name is too long'],
		['missing language', { ...pipe, languageId: '' }, 'Language is required'],
		['language not a number', { ...pipe, languageId: 'English' }, 'Language Id must be a positive whole number'],
		['missing voice', { ...pipe, voiceId: '' }, 'Voice is required'],
		['missing timezone', { ...pipe, timezone: '' }, 'Timezone is required'],
		['timezone an offset', { ...pipe, timezone: '+01:00' }, 'Timezone must be a region/city time zone name'],
		['timezone unknown city', { ...pipe, timezone: 'Europe/Atlantis' }, 'Timezone must be a region/city time zone name'],
		['missing initial message', { ...pipe, initialMessage: '' }, 'Initial Message is required'],
		['initial message over 200', { ...pipe, initialMessage: 'x'.repeat(201) }, 'Initial Message is too long: 201 characters, at most 200'],
		['missing system prompt', { ...pipe, systemPrompt: '' }, 'System Prompt is required'],
		['pipeline without LLM model', { ...pipe, llmModelId: '' }, 'LLM Model is required'],
		['multimodal without model', { ...multi, multimodalModelId: '' }, 'Multimodal Model is required'],
		['dualplex without model', { ...dual, multimodalModelId: '' }, 'Multimodal Model is required'],
		['unknown mode', { ...pipe, mode: 'turbo' }, 'Mode must be one of pipeline, multimodal, dualplex'],
		['unknown type', { ...pipe, type: 'web' }, 'Type must be one of inbound, outbound'],
		['fillers in multimodal', add(multi, { fillers: true }), 'Fillers applies to the pipeline mode only, not multimodal'],
		['transcriber in dualplex', add(dual, { transcriber_provider_id: 2 }), 'Transcriber Provider Id applies to the pipeline mode only'],
		['turn detection in pipeline', add(pipe, { turn_detection_threshold: 0.5 }), 'Turn Detection Threshold applies to the multimodal and dualplex modes only'],
		['fallback LLM in pipeline', add(pipe, { chat_llm_fallback_id: 1 }), 'Chat Llm Fallback Id applies to the multimodal and dualplex modes only'],
		['prompt knowledge in multimodal', add(multi, { knowledgebase_mode: 'prompt' }), 'Knowledgebase Mode must be function_call in the multimodal mode'],
		['prompt knowledge in dualplex', add(dual, { knowledgebase_mode: 'prompt' }), 'Knowledgebase Mode must be function_call in the dualplex mode'],
		['no interruptions in multimodal', add(multi, { allow_interruptions: false }), 'Allow Interruptions cannot be turned off in the multimodal mode'],
		['no interruptions in dualplex', add(dual, { allow_interruptions: false }), 'Allow Interruptions cannot be turned off in the dualplex mode'],
		['webhook active without URL', add(pipe, { is_webhook_active: true }), 'Webhook URL is required when Is Webhook Active is on'],
		['webhook URL invalid', add(pipe, { webhook_url: 'hooks.example' }), 'Webhook URL must be a valid http(s) URL'],
		['speech speed 0.6', add(pipe, { speech_speed: 0.6 }), 'Speech Speed must be a number from 0.7 to 1.2'],
		['speech speed 1.3', add(pipe, { speech_speed: 1.3 }), 'Speech Speed must be a number from 0.7 to 1.2'],
		['voice stability 1.5', add(pipe, { voice_stability: 1.5 }), 'Voice Stability must be a number from 0 to 1'],
		['temperature -0.1', add(pipe, { llm_temperature: -0.1 }), 'Llm Temperature must be a number from 0 to 1'],
		['max duration 10', add(pipe, { max_duration: 10 }), 'Max Duration must be a whole number from 20 to 1200'],
		['max duration 1201', add(pipe, { max_duration: 1201 }), 'Max Duration must be a whole number from 20 to 1200'],
		['max silence 400', add(pipe, { max_silence_duration: 400 }), 'Max Silence Duration must be a whole number from 1 to 360'],
		['initial silence 121', add(pipe, { max_initial_silence_duration: 121 }), 'Max Initial Silence Duration must be a whole number from 1 to 120'],
		['ringing time 61', add(pipe, { ringing_time: 61 }), 'Ringing Time must be a whole number from 1 to 60'],
		['reengagement interval 5', add(pipe, { reengagement_interval: 5 }), 'Reengagement Interval must be a whole number from 7 to 600'],
		['reengagement prompt over 1000', add(pipe, { reengagement_prompt: 'p'.repeat(1001) }), 'Reengagement Prompt is too long'],
		['voicemail message over 1000', add(pipe, { voice_mail_message: 'v'.repeat(1001) }), 'Voice Mail Message is too long'],
		['endpoint sensitivity 6', add(pipe, { endpoint_sensitivity: 6 }), 'Endpoint Sensitivity must be a number from 0 to 5'],
		['interrupt sensitivity -1', add(pipe, { interrupt_sensitivity: -1 }), 'Interrupt Sensitivity must be a number from 0 to 5'],
		['min interrupt words 11', add(pipe, { min_interrupt_words: 11 }), 'Min Interrupt Words must be a whole number from 0 to 10'],
		['min interrupt words 1.5', add(pipe, { min_interrupt_words: 1.5 }), 'Min Interrupt Words must be a whole number from 0 to 10'],
		['ambient volume 2', add(pipe, { ambient_sound_volume: 2 }), 'Ambient Sound Volume must be a number from 0 to 1'],
		['unknown ambient sound', add(pipe, { ambient_sound: 'beach' }), 'Ambient Sound must be one of'],
		['unknown endpoint type', add(pipe, { endpoint_type: 'manual' }), 'Endpoint Type must be one of vad, ai'],
		['turn detection 1.2', add(multi, { turn_detection_threshold: 1.2 }), 'Turn Detection Threshold must be a number from 0 to 1'],
		['schema name too short', add(pipe, { post_call_schema: { field: [{ name: 'ok', type: 'string', description: 'abc' }] } }), 'Post-Call Schema → Field 1 → Name must be 3-16'],
		['schema name upper case', add(pipe, { post_call_schema: { field: [{ name: 'Budget', type: 'string', description: 'abc' }] } }), 'Post-Call Schema → Field 1 → Name must be 3-16'],
		['schema type boolean', add(pipe, { post_call_schema: { field: [{ name: 'budget', type: 'boolean', description: 'abc' }] } }), 'Post-Call Schema → Field 1 → Type must be one of string, number, bool'],
		['schema description short', add(pipe, { post_call_schema: { field: [{ name: 'budget', type: 'number', description: 'ab' }] } }), 'Post-Call Schema → Field 1 → Description must be 3-255 characters'],
		['transfer without number', add(pipe, { tools: { tool: [{ type: 'call_transfer', description: 'x' }] } }), 'Built-in Tools → Tool 1 (call transfer) needs a Phone Number'],
		['calendar without key', add(pipe, { tools: { tool: [{ type: 'calendar_integration', calendar_event_slug: 'demo' }] } }), 'needs a Calendar API Key'],
		['calendar without slug', add(pipe, { tools: { tool: [{ type: 'calendar_integration', calendar_api_key: 'k' }] } }), 'needs a Calendar Event Slug'],
		['update: set and clear', update({ knowledgebase_id: 3 }, { clearFields: ['knowledgebase_id'] }), 'Knowledgebase Id is both set and cleared'],
		['update: set and empty', update({ tool_ids: ['7'] }, { emptyCollections: ['tool_ids'] }), 'Tool Ids is both set and emptied'],
		['update: nothing', update({}), 'Nothing to update'],
		['update to multimodal with an LLM model', update({ llm_model_id: 2 }, { mode: 'multimodal' }), 'Llm Model Id applies to the pipeline mode only'],
		['update to pipeline with prompt knowledge ok but speed out of range', update({ speech_speed: 2 }, { mode: 'pipeline' }), 'Speech Speed must be a number from 0.7 to 1.2'],
	])('refuses %s, with no request sent', async (_what, parameters, message) => {
		await expect(run(parameters)).rejects.toThrow(message);
		expect(nock.pendingMocks()).toEqual([]);
	});
});
