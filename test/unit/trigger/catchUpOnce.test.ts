/**
 * Catching up after downtime within one n8n process: a call is started once,
 * whether it was delivered before the downtime, caught up before its own
 * delivery comes, being built by its delivery right now, or posted without the
 * secret while Verify Secret is off.
 */
import nock from 'nock';

import { deliveryKey } from '../../../nodes/VoiceChatAssistantTrigger/core/payload';
import { finish, start } from '../../../nodes/VoiceChatAssistantTrigger/core/replays';
import { TEST_BASE_URL } from '../../helpers/context';
import { CALLS, DELIVERED_ID, DOWN_AT, MINUTE, URL_PARAM, listCall, page } from './catchUpFixtures';
import {
	DELIVERED_LISTED,
	PAYLOAD,
	deliver,
	gapCalls,
	parameters,
	registered,
	staticData,
	useCatchUpList,
} from './catchUpHarness';

const { clock, listed } = useCatchUpList();

describe('Voice Chat Assistant Trigger: catching up after downtime', () => {
	it('a call delivered before the downtime is not started again', async () => {
		const delivered = listCall(8999, DOWN_AT - 3 * MINUTE);
		const missed = listCall(9001, DOWN_AT + MINUTE);
		listed([missed, delivered]);
		const { items } = await deliver({
			staticData: staticData('inboundCallCompleted', [[8999, DOWN_AT - MINUTE]]),
		});
		expect(items.map((i) => i.id)).toEqual([9001, DELIVERED_ID]);
	});

	it('a caught-up call that the service delivers later in the same process starts nothing', async () => {
		const gap = gapCalls(2);
		listed(gap.map((g) => g.call));
		const first = await deliver({});
		expect(first.items.map((i) => i.id)).toEqual([9001, 9002, DELIVERED_ID]);
		clock.advance(30_000);
		const again = await deliver({ staticData: first.staticData, body: { ...PAYLOAD, id: 9002 } });
		expect(again.result.workflowData).toBeUndefined();
		expect(again.response).toMatchObject({
			statusCode: 200,
			body: { received: true, duplicate: true },
		});
		expect(again.sent).toEqual([]);
	});

	it('a call whose delivery is being built right now (its recording downloading) is left to that delivery', async () => {
		const probe = registered.webhookContext().context;
		const key = deliveryKey(
			`${probe.getWorkflow().id}|${probe.getNode().id}`,
			'inboundCallCompleted',
			{ id: 9002 },
		) as string;
		start(key);
		try {
			listed(gapCalls(3).map((g) => g.call));
			const { items } = await deliver({});
			expect(items.map((i) => i.id)).toEqual([9001, 9003, DELIVERED_ID]);
		} finally {
			finish(key);
		}
	});

	it('a caught-up call is remembered before its item is built: its delivery arriving meanwhile starts nothing', async () => {
		const gap = gapCalls(2);
		listed(gap.map((g) => g.call));
		let duringBuild: Awaited<ReturnType<typeof deliver>> | undefined;
		// the recording of the first caught-up call answers only after the delivery of 9002 arrived
		// the delivered call's own recording: looked up in the list by phone number, then failing
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query((query) => 'phone_number' in query)
			.reply(200, page([DELIVERED_LISTED], 1, 1));
		const cdn = nock('https://cdn.example.com');
		cdn.get(`/recordings/${DELIVERED_ID}.mp3`).reply(500, 'down');
		cdn.get('/recordings/9001.mp3').reply(async () => {
			duringBuild = await deliver({ body: { ...PAYLOAD, id: 9002 } });
			return [500, 'down'];
		});
		cdn.get('/recordings/9002.mp3').reply(500, 'down');
		const first = await deliver({
			parameters: parameters({ options: { downloadRecording: true } }),
		});
		expect(first.items.map((i) => i.id)).toEqual([9001, 9002, DELIVERED_ID]);
		expect(duringBuild?.result.workflowData).toBeUndefined();
		expect(duringBuild?.response).toMatchObject({
			statusCode: 200,
			body: { received: true, duplicate: true },
		});
	});

	it('a call this process started already is not started again, even when the saved state does not list it', async () => {
		// call 9002 reached this trigger (as assistant 12's) before the saved state was written
		const other = await deliver({
			query: { assistant_id: '12', secret: URL_PARAM },
			body: { ...PAYLOAD, id: 9002 },
		});
		expect(other.items.map((i) => i.id)).toEqual([9002]);
		listed(gapCalls(3).map((g) => g.call));
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9001, 9003, DELIVERED_ID]);
	});
});

describe('Voice Chat Assistant Trigger: every call once, whatever n8n and the service do', () => {
	it('with Verify Secret off, a post without the secret never makes the real delivery a duplicate', async () => {
		const params = parameters({ verifySecret: false });
		// each post without the secret is checked against the service's call list
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query((query) => query.assistant_id === '34' && 'phone_number' in query)
			.times(2)
			.reply(200, page([{ ...listCall(9100, DOWN_AT + MINUTE), webhook_response: null }], 1, 1));
		const guessed = await deliver({
			parameters: params,
			staticData: staticData('inboundCallCompleted', [], null),
			query: { assistant_id: '34' },
			body: { ...PAYLOAD, id: 9100 },
		});
		expect(guessed.items.map((i) => i.id)).toEqual([9100]);
		const again = await deliver({
			parameters: params,
			staticData: staticData('inboundCallCompleted', [], null),
			query: { assistant_id: '34' },
			body: { ...PAYLOAD, id: 9100 },
		});
		expect(again.response).toMatchObject({ body: { received: true, duplicate: true } });
		const real = await deliver({
			parameters: params,
			staticData: staticData('inboundCallCompleted', [], null),
			body: { ...PAYLOAD, id: 9100 },
		});
		expect(real.items.map((i) => i.id)).toEqual([9100]);
		expect(real.response).toMatchObject({ body: { received: true } });
		expect(real.response).not.toMatchObject({ body: { duplicate: true } });
	});

	it('a delivery repeated while its recording downloads starts nothing', async () => {
		let during: Awaited<ReturnType<typeof deliver>> | undefined;
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query((query) => 'phone_number' in query)
			.reply(200, page([DELIVERED_LISTED], 1, 1));
		nock('https://cdn.example.com')
			.get(`/recordings/${DELIVERED_ID}.mp3`)
			.reply(async () => {
				during = await deliver({ staticData: staticData('inboundCallCompleted', [], null) });
				return [200, Buffer.from('ID3')];
			});
		const first = await deliver({
			staticData: staticData('inboundCallCompleted', [], null),
			parameters: parameters({ options: { downloadRecording: true } }),
		});
		expect(first.items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(during?.result.workflowData).toBeUndefined();
		expect(during?.response).toMatchObject({ body: { received: true, duplicate: true } });
	});
});
