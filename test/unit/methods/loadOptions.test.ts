/**
 * The editor's load options (assistant fields): each sends the request its
 * list needs, follows the fields it depends on, and labels the entries as the
 * editor shows them.
 */
import nock from 'nock';
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import * as loadOptions from '../../../nodes/VoiceChatAssistant/methods/loadOptions';
import * as listSearch from '../../../nodes/VoiceChatAssistant/methods/listSearch';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_BASE_URL } from '../../helpers/context';
import { pickerContext } from './pickerContext';

describe('load options (assistant fields)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('getVoices asks for the voices of the chosen mode and language, sorted by name', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/voices')
			.query({ mode: 'dualplex', language_id: '4' })
			.reply(200, {
				data: [
					{ id: 9, name: 'Mila', gender: 'female' },
					{ id: 8, name: 'Ben' },
				],
			});
		const { ctx } = pickerContext({ mode: 'dualplex', languageId: 4 });
		expect(await loadOptions.getVoices.call(ctx)).toEqual([
			{ name: 'Ben', value: 8 },
			{ name: 'Mila (female)', value: 9 },
		]);
		scope.done();
	});

	it('searchVoices (the Create picker) follows the language picked in the Language picker, and filters by what was typed', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/voices')
			.query({ mode: 'pipeline', language_id: '2' })
			.reply(200, {
				data: [
					{ id: 9, name: 'Mila', gender: 'female' },
					{ id: 8, name: 'Ben' },
				],
			});
		const { ctx } = pickerContext({
			mode: 'pipeline',
			languageId: { __rl: true, mode: 'list', value: '2' },
		});
		expect(await listSearch.searchVoices.call(ctx, 'mil')).toEqual({
			results: [{ name: 'Mila (female)', value: '9' }],
		});
		scope.done();
	});

	it('searchLanguages and searchModels list the same entries as the options, values as text', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/languages')
			.reply(200, [{ id: 2, name: 'German', code: 'de' }])
			.get('/api/user/assistants/models')
			.query({ type: 'multimodal' })
			.reply(200, [{ id: 10, name: 'GPT-4o Realtime' }]);
		expect(await listSearch.searchLanguages.call(pickerContext({}).ctx)).toEqual({
			results: [{ name: 'German (de)', value: '2' }],
		});
		expect(await listSearch.searchModels.call(pickerContext({ mode: 'multimodal' }).ctx)).toEqual({
			results: [{ name: 'GPT-4o Realtime', value: '10' }],
		});
		scope.done();
	});

	it('getVoices on update: "Keep Current" sends no mode, the language comes from Update Fields, an expression is left out', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/voices')
			.query({ language_id: '2' })
			.reply(200, [])
			.get('/api/user/assistants/voices')
			.query((q) => Object.keys(q).length === 0)
			.reply(200, []);
		await loadOptions.getVoices.call(
			pickerContext({ mode: 'keep', updateFields: { language_id: '2' } }).ctx,
		);
		await loadOptions.getVoices.call(
			pickerContext({ mode: 'keep', updateFields: { language_id: '={{ $json.language }}' } }).ctx,
		);
		scope.done();
	});

	it.each([
		[{ mode: 'pipeline' }, 'llm'],
		[{ mode: 'multimodal' }, 'multimodal'],
		[{ mode: 'dualplex' }, 'dualplex'],
		[{ mode: 'keep' }, 'llm'],
		[{}, 'llm'],
	])('getModels with %j asks for type=%s', async (current, type) => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/models')
			.query({ type })
			.reply(200, { data: [{ id: 1, name: 'm' }] });
		expect(await loadOptions.getModels.call(pickerContext(current).ctx)).toEqual([
			{ name: 'm', value: 1 },
		]);
		scope.done();
	});

	it.each([
		[{ type: 'inbound' }, 'inbound'],
		[{ updateFields: { type: 'inbound' } }, 'inbound'],
		[{}, 'outbound'],
	])('getAssignablePhoneNumbers with %j asks for type=%s', async (current, type) => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/assistants/phone-numbers')
			.query({ type })
			.reply(200, [{ id: 7, phone_number: '+4930123456', type_label: 'Purchased' }]);
		expect(await loadOptions.getAssignablePhoneNumbers.call(pickerContext(current).ctx)).toEqual([
			{ name: '+4930123456 (Purchased)', value: 7 },
		]);
		scope.done();
	});

	it.each([
		[
			'getLanguages',
			'/api/user/assistants/languages',
			{},
			[
				{ id: 2, name: 'German', code: 'de' },
				{ id: 1, name: 'English' },
			],
			['English', 'German (de)'],
		],
		[
			'getLlmModels',
			'/api/user/assistants/models',
			{ type: 'llm' },
			[{ id: 1, name: 'gpt' }],
			['gpt'],
		],
		[
			'getSynthesizerProviders',
			'/api/user/assistants/synthesizer-providers',
			{},
			[{ id: 1, name: 'ElevenLabs' }],
			['ElevenLabs'],
		],
		[
			'getTranscriberProviders',
			'/api/user/assistants/transcriber-providers',
			{},
			[{ id: 1, name: 'Deepgram' }],
			['Deepgram'],
		],
		[
			'getKnowledgebases',
			'/api/user/knowledgebases',
			{},
			{ data: [{ id: 3, name: 'FAQ' }] },
			['FAQ'],
		],
		[
			'getTools',
			'/api/user/tools',
			{},
			[
				{ id: 4, name: 'Zeta' },
				{ id: 5, name: 'Alpha' },
			],
			['Alpha', 'Zeta'],
		],
	] as Array<[keyof typeof loadOptions, string, nock.DataMatcherMap, unknown, string[]]>)(
		'%s reads %s',
		async (method, path, query, answer, names) => {
			const scope = nock(TEST_BASE_URL)
				.get(path)
				.query(query)
				.reply(200, answer as nock.Body);
			const options = await (
				loadOptions[method] as (this: ILoadOptionsFunctions) => Promise<Array<{ name: string }>>
			).call(pickerContext().ctx);
			expect(options.map((o) => o.name)).toEqual(names);
			scope.done();
		},
	);
});
