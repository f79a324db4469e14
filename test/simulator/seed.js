'use strict';
/**
 * Seed data. `accountFixtures` are things the API cannot create (user, keys, catalogues,
 * phone numbers, campaigns) and exist even with `seed: false`; `sampleData` adds
 * assistants, a knowledgebase, a tool, a lead, calls and conversations.
 */
const { iso, sqlTime } = require('./util');
const { ASSISTANT_DEFAULTS, defaultProviders, makeCall, makeConversation } = require('./domain');

const DAY = 86400000;

/** Fixed UUIDs so tests can address the seeded assistants and conversations. */
const SEED_UUIDS = {
	assistant1: '9b2f6c1e-4a7d-4c1b-8e3f-1a2b3c4d5e01',
	assistant2: '9b2f6c1e-4a7d-4c1b-8e3f-1a2b3c4d5e02',
	conversation1: '0d6e8f10-2b3c-4d5e-8f70-1a2b3c4d5f01',
	conversation2: '0d6e8f10-2b3c-4d5e-8f70-1a2b3c4d5f02',
	conversation3: '0d6e8f10-2b3c-4d5e-8f70-1a2b3c4d5f03',
};

function accountFixtures(now) {
	return {
		user: { id: 1, name: 'Sim Tester', email: 'sim.tester@example.com', total_balance: 25.5 },
		apiKeys: [
			{
				id: 1,
				name: 'Default key',
				last_used_at: iso(now - 2 * DAY),
				created_at: iso(now - 90 * DAY),
			},
			{ id: 2, name: 'n8n integration', last_used_at: null, created_at: iso(now - 10 * DAY) },
		],
		languages: [
			{
				id: 1,
				name: 'English',
				code: 'en',
				iso_2: 'en',
				default_synthesizer_provider_id: 1,
				default_transcriber_provider_id: 1,
			},
			{
				id: 2,
				name: 'German',
				code: 'de',
				iso_2: 'de',
				default_synthesizer_provider_id: 1,
				default_transcriber_provider_id: 1,
			},
			{
				id: 3,
				name: 'Spanish',
				code: 'es',
				iso_2: 'es',
				default_synthesizer_provider_id: 3,
				default_transcriber_provider_id: 3,
			},
			{
				id: 4,
				name: 'French',
				code: 'fr',
				iso_2: 'fr',
				default_synthesizer_provider_id: 2,
				default_transcriber_provider_id: 2,
			},
			{
				id: 5,
				name: 'Italian',
				code: 'it',
				iso_2: 'it',
				default_synthesizer_provider_id: 2,
				default_transcriber_provider_id: 3,
			},
		],
		models: [
			{ id: 1, name: 'GPT-4o-mini', type: 'llm' },
			{ id: 2, name: 'GPT-4.1-mini', type: 'llm' },
			{ id: 3, name: 'Llama 3.3 70B', type: 'llm' },
			{ id: 10, name: 'GPT-4o Realtime', type: 'multimodal' },
			{ id: 11, name: 'Gemini 2.0 Flash Live', type: 'multimodal' },
			{ id: 20, name: 'GPT-4o Realtime (Dualplex)', type: 'dualplex' },
			{ id: 21, name: 'Gemini Live (Dualplex)', type: 'dualplex' },
		],
		synthesizerProviders: [
			{ id: 1, name: 'ElevenLabs', code: 'elevenlabs', language_ids: [1, 2, 3, 4, 5] },
			{ id: 2, name: 'Azure', code: 'azure', language_ids: [1, 2, 3, 4, 5] },
			{ id: 3, name: 'Cartesia', code: 'cartesia', language_ids: [1, 2, 3] },
		],
		transcriberProviders: [
			{ id: 1, name: 'Deepgram', code: 'deepgram', language_ids: [1, 2, 3, 4, 5] },
			{ id: 2, name: 'Azure', code: 'azure', language_ids: [1, 2, 3, 4, 5] },
			{ id: 3, name: 'Gladia', code: 'gladia', language_ids: [1, 3, 4, 5] },
		],
		// `modes`: engine modes the voice works with; `owner_id`: null = public voice.
		voices: [
			{
				id: 1,
				name: 'Emma',
				language_id: 1,
				gender: 'female',
				modes: ['pipeline', 'dualplex'],
				owner_id: null,
			},
			{
				id: 2,
				name: 'James',
				language_id: 1,
				gender: 'male',
				modes: ['pipeline', 'dualplex'],
				owner_id: null,
			},
			{
				id: 3,
				name: 'Lena',
				language_id: 2,
				gender: 'female',
				modes: ['pipeline', 'dualplex'],
				owner_id: null,
			},
			{ id: 4, name: 'Lukas', language_id: 2, gender: 'male', modes: ['pipeline'], owner_id: null },
			{
				id: 5,
				name: 'Sofia',
				language_id: 3,
				gender: 'female',
				modes: ['pipeline'],
				owner_id: null,
			},
			{
				id: 6,
				name: 'Claire',
				language_id: 4,
				gender: 'female',
				modes: ['pipeline'],
				owner_id: null,
			},
			{
				id: 10,
				name: 'Alloy',
				language_id: null,
				gender: 'female',
				modes: ['multimodal'],
				owner_id: null,
			},
			{
				id: 11,
				name: 'Echo',
				language_id: null,
				gender: 'male',
				modes: ['multimodal'],
				owner_id: null,
			},
			{
				id: 12,
				name: 'Shimmer',
				language_id: null,
				gender: 'female',
				modes: ['multimodal'],
				owner_id: null,
			},
			{
				id: 20,
				name: 'Aria (Dualplex)',
				language_id: 1,
				gender: 'female',
				modes: ['dualplex'],
				owner_id: null,
			},
			{
				id: 21,
				name: 'Max (Dualplex)',
				language_id: 2,
				gender: 'male',
				modes: ['dualplex'],
				owner_id: null,
			},
			{
				id: 30,
				name: 'My cloned voice',
				language_id: 1,
				gender: 'male',
				modes: ['pipeline', 'dualplex'],
				owner_id: 1,
			},
			{
				id: 99,
				name: 'Another account voice',
				language_id: 1,
				gender: 'female',
				modes: ['pipeline'],
				owner_id: 2,
			},
		],
		phoneNumbers: [
			{
				id: 1,
				phone_number: '+14155550101',
				country_code: 'US',
				type: 'normal',
				sms_capable: true,
				region: 'California',
				has_active_subscription: true,
				created_at: iso(now - 120 * DAY),
			},
			{
				id: 2,
				phone_number: '+14155550102',
				country_code: 'US',
				type: 'normal',
				sms_capable: true,
				region: 'California',
				has_active_subscription: true,
				created_at: iso(now - 100 * DAY),
			},
			{
				id: 3,
				phone_number: '+49305550103',
				country_code: 'DE',
				type: 'normal',
				sms_capable: false,
				region: 'Berlin',
				has_active_subscription: true,
				created_at: iso(now - 80 * DAY),
			},
			{
				id: 4,
				phone_number: '+4915112345678',
				country_code: 'DE',
				type: 'caller_id',
				sms_capable: false,
				region: 'Germany',
				has_active_subscription: false,
				created_at: iso(now - 60 * DAY),
			},
			{
				id: 5,
				phone_number: '+49895550105',
				country_code: 'DE',
				type: 'sip',
				sms_capable: false,
				region: 'Bavaria',
				has_active_subscription: true,
				created_at: iso(now - 40 * DAY),
			},
			{
				id: 6,
				phone_number: '+447700900106',
				country_code: 'GB',
				type: 'normal',
				sms_capable: true,
				region: 'London',
				has_active_subscription: false,
				created_at: iso(now - 20 * DAY),
			},
		],
		campaigns: [
			{
				id: 1,
				name: 'Spring Outreach',
				status: 'active',
				assistant_id: 2,
				allowed_hours_start_time: '09:00:00',
				allowed_hours_end_time: '18:00:00',
				allowed_days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
				max_calls_in_parallel: 5,
				max_retries: 3,
				retry_interval: 60,
				created_at: iso(now - 30 * DAY),
				updated_at: iso(now - 2 * DAY),
			},
			{
				id: 2,
				name: 'Winter Reactivation',
				status: 'paused',
				assistant_id: 2,
				allowed_hours_start_time: '10:00:00',
				allowed_hours_end_time: '16:00:00',
				allowed_days: ['monday', 'wednesday', 'friday'],
				max_calls_in_parallel: 2,
				max_retries: 1,
				retry_interval: 120,
				created_at: iso(now - 200 * DAY),
				updated_at: iso(now - 150 * DAY),
			},
		],
	};
}

function sampleData(state, now) {
	const t = (ms) => ({ created_at: iso(ms), updated_at: iso(ms) });
	/** An active assistant speaking language 1: the defaults, its id to voice, then `fields` in order. */
	const assistant = ({ id, name, type, mode, voice_id }, fields, createdMs) => ({
		...JSON.parse(JSON.stringify(ASSISTANT_DEFAULTS)),
		id,
		uuid: SEED_UUIDS[`assistant${id}`],
		name,
		status: 'active',
		type,
		mode,
		voice_id,
		language_id: 1,
		...fields,
		inbound_webhook_url: null,
		...t(createdMs),
	});
	const assistant1 = assistant(
		{ id: 1, name: 'Reception (inbound)', type: 'inbound', mode: 'pipeline', voice_id: 1 },
		{
			timezone: 'America/New_York',
			initial_message: 'Hello, thank you for calling Acme. How can I help you today?',
			system_prompt:
				'You are the friendly receptionist of Acme. Answer questions using the knowledgebase.',
			llm_model_id: 1,
			...defaultProviders(state, 'pipeline', 1),
			knowledgebase_id: 1,
			knowledgebase_mode: 'prompt',
			phone_number_id: 1,
			tool_ids: [1],
			tools: [{ type: 'end_call', description: 'End the call when the caller says goodbye.' }],
			post_call_schema: [
				{ name: 'reason', type: 'string', description: 'Why the customer called' },
			],
		},
		now - 60 * DAY,
	);
	const assistant2 = assistant(
		{ id: 2, name: 'Sales caller (outbound)', type: 'outbound', mode: 'multimodal', voice_id: 10 },
		{
			timezone: 'Europe/Berlin',
			initial_message: 'Hi {{customer_name}}, this is Mia from Acme. Do you have a minute?',
			system_prompt: 'You are Mia, a polite sales assistant. Qualify the lead and book a demo.',
			multimodal_model_id: 10,
			...defaultProviders(state, 'multimodal', 1),
			knowledgebase_mode: 'function_call',
			phone_number_id: 2,
			record: true,
			post_call_schema: [
				{ name: 'interested', type: 'bool', description: 'Whether the lead is interested' },
				{ name: 'budget', type: 'number', description: 'Budget mentioned by the lead in USD' },
			],
			variables: { company: 'Acme' },
		},
		now - 45 * DAY,
	);
	state.assistants.push(assistant1, assistant2);

	state.knowledgebases.push({
		id: 1,
		name: 'Product FAQ',
		description: 'Answers to frequent questions',
		...t(now - 50 * DAY),
	});
	state.documents.push({
		id: 1,
		knowledgebase_id: 1,
		name: 'FAQ page',
		description: 'The public FAQ page',
		type: 'website',
		status: 'active',
		url: 'https://www.example.com/faq',
		links: null,
		relative_links_limit: 10,
		file: null,
		...t(now - 50 * DAY),
	});

	state.tools.push({
		id: 1,
		name: 'check_order_status',
		description: "Use this tool to check the status of a customer's order.",
		endpoint: 'https://api.example.com/orders/status',
		method: 'GET',
		timeout: 10,
		headers: [{ name: 'X-Api-Key', value: 'example' }],
		schema: [{ name: 'order_id', type: 'string', description: "The customer's order ID" }],
		...t(now - 40 * DAY),
	});

	const leadTime = sqlTime(now - 5 * DAY);
	state.leads.push({
		id: 1,
		campaign_id: 1,
		phone_number: '+14155559876',
		variables: { customer_name: 'Jane Doe', email: 'jane.doe@example.com' },
		status: 'created',
		created_at: leadTime,
		updated_at: leadTime,
		secondary_contacts: [],
	});

	const callPlan = [
		{ assistant: assistant1, type: 'inbound', status: 'completed', daysAgo: 6 },
		{ assistant: assistant1, type: 'inbound', status: 'ended_by_customer', daysAgo: 5 },
		{ assistant: assistant2, type: 'outbound', status: 'no-answer', daysAgo: 4, campaign_id: 1 },
		{
			assistant: assistant2,
			type: 'outbound',
			status: 'completed',
			daysAgo: 3,
			campaign_id: 1,
			customer_phone: '+14155559876',
			lead_id: 1,
		},
		{ assistant: assistant2, type: 'outbound', status: 'busy', daysAgo: 2 },
		{ assistant: assistant1, type: 'web', status: 'completed', daysAgo: 1 },
		{ assistant: assistant2, type: 'outbound', status: 'failed', daysAgo: 0.5 },
	];
	callPlan.forEach((p, i) => {
		state.calls.push(
			makeCall(state, {
				id: i + 1,
				assistant: p.assistant,
				type: p.type,
				status: p.status,
				campaign_id: p.campaign_id,
				lead_id: p.lead_id,
				customer_phone: p.customer_phone,
				created_ms: now - p.daysAgo * DAY,
			}),
		);
	});

	const conv = (id, assistant, type, daysAgo, messages, cost) =>
		makeConversation(
			assistant,
			type,
			{ variables: {}, messages },
			{
				id,
				totalCost: cost,
				createdMs: now - daysAgo * DAY,
				updatedMs: now - daysAgo * DAY + 120000,
			},
		);
	state.conversations.push(
		conv(
			SEED_UUIDS.conversation1,
			assistant1,
			'widget',
			3,
			[
				{ role: 'assistant', content: assistant1.initial_message },
				{ role: 'user', content: 'What are your opening hours?' },
				{ role: 'assistant', content: 'We are open Monday to Friday from 9 am to 6 pm.' },
			],
			0.01,
		),
		conv(
			SEED_UUIDS.conversation2,
			assistant1,
			'test',
			2,
			[{ role: 'assistant', content: assistant1.initial_message }],
			0,
		),
		conv(
			SEED_UUIDS.conversation3,
			assistant2,
			'api',
			1,
			[
				{ role: 'assistant', content: 'Hi there, this is Mia from Acme. Do you have a minute?' },
				{ role: 'user', content: 'Is my order 1234 shipped?' },
				{
					role: 'assistant',
					content: 'Your order 1234 has shipped.',
					function_calls: [
						{
							name: 'check_order_status',
							arguments: { order_id: '1234' },
							result: { status: 'shipped' },
						},
					],
				},
			],
			0,
		),
	);
}

module.exports = { accountFixtures, sampleData, SEED_UUIDS };
