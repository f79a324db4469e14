import nock from 'nock';

import { TEST_BASE_URL } from '../../../helpers/context';
import { run } from '../helpers';
import { add, dual, multi, pipe, record, requiredBody, update } from './fixtures';
import type { Refusal } from './refusals';
import { itRefuses } from './refusals';

/**
 * modeRules.ts: what the service refuses for an engine mode is refused before
 * sending; what it accepts (a field that only applies to another mode, fillers
 * off, the webhook switch on update, any region/city time zone) reaches it.
 */
describe('Assistant → Create and Update: engine-mode rules', () => {
	// what the two realtime modes refuse alike
	const realtime = [
		['multimodal', multi],
		['dualplex', dual],
	] as const;
	itRefuses([
		[
			'fillers in multimodal',
			add(multi, { fillers: true }),
			'Fillers can only be turned on in the pipeline mode, not multimodal',
		],
		...realtime.flatMap(([mode, parameters]): Refusal[] => [
			[
				`prompt knowledge in ${mode}`,
				add(parameters, { knowledgebase_mode: 'prompt' }),
				`Knowledgebase Mode must be function_call in the ${mode} mode`,
			],
			[
				`no interruptions in ${mode}`,
				add(parameters, { allow_interruptions: false }),
				`Allow Interruptions cannot be turned off in the ${mode} mode`,
			],
		]),
		[
			'webhook active without URL',
			add(pipe, { is_webhook_active: true }),
			'Webhook URL is required when Post-Call Webhook Active is on',
		],
		[
			'update to multimodal without a multimodal model',
			update({ llm_model_id: 2 }, { mode: 'multimodal' }),
			'Multimodal Model is required when changing to the multimodal mode',
		],
		[
			'update to pipeline without an LLM model',
			update({ name: 'Lisa' }, { mode: 'pipeline' }),
			'LLM Model is required when changing to the pipeline mode',
		],
	]);

	const answer = { message: 'Assistant created successfully', data: record };
	it.each([
		[
			'fillers off in multimodal',
			add(multi, { fillers: false }),
			{ ...requiredBody('multimodal'), fillers: false },
		],
		[
			'fillers off in dualplex',
			add(dual, { fillers: false }),
			{ ...requiredBody('dualplex'), fillers: false },
		],
		[
			'a transcriber in dualplex (applies to pipeline only)',
			add(dual, { transcriber_provider_id: 2 }),
			{ ...requiredBody('dualplex'), transcriber_provider_id: 2 },
		],
		[
			'turn detection in pipeline (applies to the realtime modes)',
			add(pipe, { turn_detection_threshold: 0.5 }),
			{ ...requiredBody('pipeline'), turn_detection_threshold: 0.5 },
		],
		[
			'a fallback LLM in pipeline',
			add(pipe, { chat_llm_fallback_id: 1 }),
			{ ...requiredBody('pipeline'), chat_llm_fallback_id: 1 },
		],
	])('sends %s on create', async (_what, parameters, body) => {
		const scope = nock(TEST_BASE_URL).post('/api/user/assistant', body).reply(201, answer);
		await run(parameters);
		scope.done();
	});

	it.each([
		'Asia/Kolkata',
		'Europe/Kyiv',
		'America/Argentina/Buenos_Aires',
		'America/Nuuk',
		'Asia/Calcutta',
		'America/Ciudad_Juarez',
	])('sends the time zone %s, in the assistant and in a call transfer tool', async (zone) => {
		const tools = {
			tool: [{ type: 'call_transfer', phone_number: '+4930123456', timezone: zone }],
		};
		const scope = nock(TEST_BASE_URL)
			.post('/api/user/assistant', {
				...requiredBody('pipeline'),
				timezone: zone,
				tools: [{ type: 'call_transfer', phone_number: '+4930123456', timezone: zone }],
			})
			.reply(201, answer);
		await run(add({ ...pipe, timezone: zone }, { tools }));
		scope.done();
	});

	it('sends the post-call webhook switch on update without a URL: the assistant may already have one', async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/9', { is_webhook_active: true })
			.reply(200, { message: 'Assistant updated successfully', data: record });
		await run(update({ is_webhook_active: true }));
		scope.done();
	});

	it("sends a mode change on update together with the new mode's model (and an LLM fallback)", async () => {
		const scope = nock(TEST_BASE_URL)
			.put('/api/user/assistant/9', {
				mode: 'multimodal',
				multimodal_model_id: 11,
				llm_model_id: 2,
			})
			.reply(200, { message: 'Assistant updated successfully', data: record });
		await run(update({ multimodal_model_id: 11, llm_model_id: 2 }, { mode: 'multimodal' }));
		scope.done();
	});
});
