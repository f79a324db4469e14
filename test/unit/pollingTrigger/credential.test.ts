/**
 * n8n reuses one poll context for every poll of an activation. The credential
 * is read for each poll: a key rotated (or a Base URL changed) in the
 * credential is used from the next poll on, without reactivating.
 */
import nock from 'nock';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { VoiceChatAssistantPollingTrigger } from '../../../nodes/VoiceChatAssistantPollingTrigger/VoiceChatAssistantPollingTrigger.node';
import { resetLimiters } from '../../../nodes/VoiceChatAssistant/transport/rateLimiter';
import { TEST_API_KEY, TEST_BASE_URL, createContext } from '../../helpers/context';
import { fakeClockPerTest } from '../../helpers/fakeClock';

const node = new VoiceChatAssistantPollingTrigger();
const ROTATED_KEY = 'rotated-key-AFTER-ACTIVATION-1357';

describe('Polling trigger: the credential is read for each poll', () => {
	fakeClockPerTest();
	beforeEach(() => {
		nock.disableNetConnect();
		resetLimiters();
	});
	afterEach(() => nock.cleanAll());

	it('a key rotated between two polls of one activation is sent from the next poll on', async () => {
		const { context } = createContext({ parameters: { event: 'callEnded' }, staticData: {} });
		const base = context as unknown as IDataObject & {
			getNodeParameter: (n: string, i: number, f?: unknown) => unknown;
		};
		let credentials: IDataObject = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL };
		// one context object for every poll, as n8n has it
		const poll = Object.assign(Object.create(null), base, {
			getMode: () => 'trigger',
			getNodeParameter: (name: string, fallback?: unknown) =>
				base.getNodeParameter(name, 0, fallback),
			getCredentials: async () => credentials,
		}) as unknown as IPollFunctions;
		const list = {
			data: [{ id: 10, status: 'completed' }],
			current_page: 1,
			last_page: 1,
			per_page: 100,
			total: 1,
			next_page_url: null,
		};

		const first = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/api/user/calls')
			.query(true)
			.reply(200, list);
		expect(await node.poll.call(poll)).toBeNull();
		expect(first.isDone()).toBe(true);

		// the old key is revoked at the service and the credential holds the new one
		credentials = { apiKey: ROTATED_KEY, baseUrl: 'https://moved.example.test' };
		const old = nock(TEST_BASE_URL)
			.get('/api/user/calls')
			.query(true)
			.reply(401, { message: 'Unauthenticated.' });
		const rotated = nock('https://moved.example.test', {
			reqheaders: { authorization: `Bearer ${ROTATED_KEY}` },
		})
			.get('/api/user/calls')
			.query(true)
			.reply(200, { ...list, data: [{ id: 11, status: 'completed' }, ...list.data], total: 2 });
		const output = await node.poll.call(poll);
		expect(output?.[0].map((item) => item.json.id)).toEqual([11]);
		expect(rotated.isDone()).toBe(true);
		expect(old.isDone()).toBe(false);
	});
});
