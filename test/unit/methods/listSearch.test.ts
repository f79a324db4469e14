/**
 * The editor's list search (resource locators): each sends the request its
 * list needs, follows the fields it depends on, and labels the entries as the
 * editor shows them.
 */
import nock from 'nock';
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import * as listSearch from '../../../nodes/VoiceChatAssistant/methods/listSearch';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import { pickerContext } from './pickerContext';

const assistants = [
	{ id: 1, uuid: 'a-1', name: 'Reception', type: 'inbound', mode: 'pipeline' },
	{ id: 2, uuid: 'a-2', name: 'Sales caller', type: 'outbound', mode: 'multimodal' },
	{ id: 3, name: 'Legacy without uuid', type: 'outbound' },
];

describe('list search (resource locators)', () => {
	beforeEach(() => resetLimiters());
	afterEach(() => nock.cleanAll());

	it('searchAssistants reads one page of 100, labels type and mode, and hands out the next page as a token', async () => {
		const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '1' })
			.reply(200, {
				data: assistants,
				next_page_url: `${TEST_BASE_URL}/api/user/assistants/get?page=2`,
			})
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '2' })
			.reply(200, {
				data: [{ id: 4, name: 'Last', type: 'inbound', mode: 'dualplex' }],
				next_page_url: null,
			});
		const { ctx } = pickerContext();
		const first = await listSearch.searchAssistants.call(ctx);
		expect(first).toEqual({
			results: [
				{ name: 'Reception (inbound, pipeline)', value: '1' },
				{ name: 'Sales caller (outbound, multimodal)', value: '2' },
				{ name: 'Legacy without uuid (outbound)', value: '3' },
			],
			paginationToken: '2',
		});
		const second = await listSearch.searchAssistants.call(ctx, undefined, first.paginationToken);
		expect(second).toEqual({ results: [{ name: 'Last (inbound, dualplex)', value: '4' }] });
		scope.done();
	});

	it('searchAssistants filters by name or ID, case-insensitively', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query(true)
			.times(2)
			.reply(200, { data: assistants, next_page_url: null });
		const { ctx } = pickerContext();
		expect((await listSearch.searchAssistants.call(ctx, 'SALES')).results).toEqual([
			{ name: 'Sales caller (outbound, multimodal)', value: '2' },
		]);
		expect((await listSearch.searchAssistants.call(ctx, '3')).results.map((r) => r.value)).toEqual([
			'3',
		]);
	});

	it('searchAssistantUuids offers UUIDs and leaves out assistants without one', async () => {
		nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query({ per_page: '100', page: '1' })
			.reply(200, { data: assistants, next_page_url: null });
		const { ctx } = pickerContext();
		expect(await listSearch.searchAssistantUuids.call(ctx)).toEqual({
			results: [
				{ name: 'Reception', value: 'a-1' },
				{ name: 'Sales caller', value: 'a-2' },
			],
		});
	});

	it('searchDocuments follows the chosen knowledgebase (a resource locator) and asks nothing without one', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/user/knowledgebases/12/documents')
			.reply(200, {
				data: [
					{ id: 5, name: 'Prices', type: 'pdf' },
					{ id: 6, name: 'Site', type: 'website' },
				],
			});
		const chosen = pickerContext({ knowledgebaseId: { __rl: true, mode: 'list', value: ' 12 ' } });
		expect(await listSearch.searchDocuments.call(chosen.ctx, 'site')).toEqual({
			results: [{ name: 'Site (website)', value: '6' }],
		});
		scope.done();

		const none = pickerContext({ knowledgebaseId: { __rl: true, mode: 'list', value: '' } });
		expect(await listSearch.searchDocuments.call(none.ctx)).toEqual({ results: [] });
		expect(none.sent).toHaveLength(0);
	});

	it.each([
		[
			'searchKnowledgebases',
			'/api/user/knowledgebases',
			{ data: [{ id: 1, name: 'FAQ' }] },
			[{ name: 'FAQ', value: '1' }],
		],
		[
			'searchTools',
			'/api/user/tools',
			[{ id: 2, name: 'CRM lookup' }],
			[{ name: 'CRM lookup', value: '2' }],
		],
		[
			'searchCampaigns',
			'/api/user/campaigns',
			{ data: [{ id: 3, name: 'Spring' }] },
			[{ name: 'Spring', value: '3' }],
		],
		[
			'searchPhoneNumbers',
			'/api/user/phone-numbers/all',
			[
				{ id: 4, phone_number: '+4930123456', type_label: 'Purchased' },
				{ id: 5, phone_number: '+4930999999', type: 'caller_id' },
				{ id: 6, phone_number: '+4930111111' },
			],
			[
				{ name: '+4930123456 (Purchased)', value: '4' },
				{ name: '+4930999999 (caller_id)', value: '5' },
				{ name: '+4930111111', value: '6' },
			],
		],
	] as Array<[keyof typeof listSearch, string, unknown, unknown]>)(
		'%s reads %s',
		async (method, path, answer, results) => {
			const scope = nock(TEST_BASE_URL)
				.get(path)
				.reply(200, answer as nock.Body);
			const { ctx } = pickerContext();
			expect(
				await (listSearch[method] as (this: ILoadOptionsFunctions) => Promise<unknown>).call(ctx),
			).toEqual({ results });
			scope.done();
		},
	);

	it("a refused picker request fails with the service's message and without the key", async () => {
		nock(TEST_BASE_URL).get('/api/user/campaigns').reply(401, { message: 'Unauthenticated.' });
		const { ctx } = pickerContext();
		const error = await listSearch.searchCampaigns.call(ctx).catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toContain('Unauthenticated.');
		expect(JSON.stringify(error)).not.toContain(TEST_API_KEY);
		expect(String((error as Error).stack)).not.toContain(TEST_API_KEY);
	});
});
