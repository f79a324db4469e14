/**
 * Catching up after downtime, which calls start and as what: the event's call
 * types and statuses, the service's record of what reached a workflow (a
 * proxy's gateway error is no delivery), no catch-up for chats nor for Listen
 * for Test Event, the delivered call first when the last node answers, and
 * the caught-up calls' recordings.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../../helpers/context';
import { trigger } from '../../helpers/registeredTrigger';
import { CALLS, DELIVERED_ID, DOWN_AT, MINUTE, NOW, listCall, page } from './catchUpFixtures';
import {
	DELIVERED_LISTED,
	PAYLOAD,
	deliver,
	gapCalls,
	iso,
	listQuery,
	parameters,
	registered,
	requests,
	staticData,
	useCatchUpList,
} from './catchUpHarness';

const { listed } = useCatchUpList();

describe('Voice Chat Assistant Trigger: catching up after downtime', () => {
	it('the inbound event starts no outbound call; calls still running are left to the service', async () => {
		const inbound = listCall(9001, DOWN_AT + MINUTE);
		const outbound = listCall(9002, DOWN_AT + 2 * MINUTE, { type: 'outbound' });
		const running = listCall(9003, NOW - 5 * MINUTE, { status: 'in-progress' });
		listed([inbound, outbound, running]);
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9001, DELIVERED_ID]);
	});

	it('Call Completed: every type, failed, no-answer and busy calls skipped with Only Completed Calls, and Call Statuses applied', async () => {
		const calls = [
			listCall(9001, DOWN_AT + MINUTE, { type: 'outbound' }),
			listCall(9002, DOWN_AT + 2 * MINUTE, { status: 'failed' }),
			listCall(9003, DOWN_AT + 3 * MINUTE, { status: 'no-answer', type: 'outbound' }),
			listCall(9004, DOWN_AT + 4 * MINUTE, { status: 'busy' }),
			listCall(9005, DOWN_AT + 5 * MINUTE, { type: 'web', status: 'ended_by_customer' }),
			listCall(9006, DOWN_AT + 6 * MINUTE, { status: 'ended' }),
		];
		listed(calls, 'callCompleted');
		const { items, sent } = await deliver({
			staticData: staticData('callCompleted'),
			parameters: parameters({
				event: 'callCompleted',
				options: { callStatuses: ['completed', 'ended_by_customer'] },
			}),
		});
		// no "type" filter for the post-call webhook
		expect(requests(sent)).toEqual([
			`GET ${CALLS} ${JSON.stringify(listQuery(1, 'callCompleted'))}`,
		]);
		expect(items.map((i) => [i.id, i.event, i.caught_up])).toEqual([
			[9001, 'callCompleted', true],
			[9005, 'callCompleted', true],
			[DELIVERED_ID, 'callCompleted', undefined],
		]);
	});

	it('Call Completed without Only Completed Calls starts failed calls too', async () => {
		const failed = listCall(9002, DOWN_AT + 2 * MINUTE, { status: 'failed' });
		listed([failed], 'callCompleted');
		const data = staticData('callCompleted');
		((data.registration as IDataObject).settings as IDataObject).send_webhook_only_on_completed =
			false;
		const { items } = await deliver({
			staticData: data,
			parameters: parameters({ event: 'callCompleted', options: { onlyCompletedCalls: false } }),
		});
		expect(items.map((i) => [i.id, i.status])).toEqual([
			[9002, 'failed'],
			[DELIVERED_ID, 'completed'],
		]);
	});

	it('Listen for Test Event never catches up and keeps no state', async () => {
		const data = staticData();
		const before = JSON.parse(JSON.stringify(data)) as IDataObject;
		const { items, sent, staticData: after } = await deliver({ mode: 'manual', staticData: data });
		expect(sent).toEqual([]);
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(after).toEqual(before);
	});

	it('a trigger without catch-up state starts it at its first delivery, without reading the list', async () => {
		const {
			items,
			sent,
			staticData: data,
		} = await deliver({ staticData: staticData('inboundCallCompleted', [], null) });
		expect(sent).toEqual([]);
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(data.catchUp).toEqual({ assistants: { '34': { at: NOW, recent: [] } } });
	});

	it('chats are not caught up', async () => {
		const data = staticData('conversationEnded');
		const { items, sent } = await deliver({
			staticData: data,
			parameters: parameters({ event: 'conversationEnded' }),
			body: {
				conversation_id: '7b7c1f2e-0000-4000-8000-000000000001',
				ended_at: iso(NOW),
				transcript: [],
			},
		});
		expect(sent).toEqual([]);
		expect(items).toHaveLength(1);
	});

	it('"When Last Node Finishes": the delivered call comes first, so the answer is about it', async () => {
		listed(gapCalls(2).map((g) => g.call));
		const { items } = await deliver({ parameters: parameters({ responseMode: 'lastNode' }) });
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID, 9001, 9002]);
	});
});

describe('Voice Chat Assistant Trigger: every call once, whatever n8n and the service do', () => {
	it("the service's record decides what reached a workflow: answered calls are not started, refused ones are", async () => {
		const calls = [
			listCall(9001, DOWN_AT + MINUTE, { webhook_response: { received: true } }),
			listCall(9002, DOWN_AT + 2 * MINUTE, { webhook_response: { message: 'Unauthorized' } }),
			listCall(9003, DOWN_AT + 3 * MINUTE, {
				webhook_response: {
					code: 404,
					message: 'The requested webhook "POST webhook" is not registered.',
				},
			}),
			// a workflow's own answer ("When Last Node Finishes")
			listCall(9004, DOWN_AT + 4 * MINUTE, { webhook_response: { ok: 1 } }),
			listCall(9005, DOWN_AT + 5 * MINUTE, { webhook_response: {} }),
		];
		listed(calls);
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9002, 9003, 9005, DELIVERED_ID]);
	});

	it("a proxy's gateway error is no delivery (a balancer in front of a webhook process that restarts): those calls are started, a gateway timeout's are not", async () => {
		const NGINX_502 =
			'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
		const calls = [
			listCall(9001, DOWN_AT + MINUTE, { webhook_response: 'Bad Gateway' }),
			listCall(9002, DOWN_AT + 2 * MINUTE, { webhook_response: NGINX_502 }),
			listCall(9003, DOWN_AT + 3 * MINUTE, { webhook_response: 'no healthy upstream' }),
			listCall(9004, DOWN_AT + 4 * MINUTE, {
				webhook_response: { message: 'Service Unavailable' },
			}),
			// n8n may have received these: a gateway timeout, a workflow's own text answer
			listCall(9005, DOWN_AT + 5 * MINUTE, { webhook_response: '504 Gateway Time-out' }),
			listCall(9006, DOWN_AT + 6 * MINUTE, { webhook_response: 'Bad Gateway handled: ok' }),
			listCall(9007, DOWN_AT + 7 * MINUTE, { webhook_response: 'thanks' }),
		];
		listed(calls);
		const { items } = await deliver({});
		expect(items.map((i) => i.id)).toEqual([9001, 9002, 9003, 9004, DELIVERED_ID]);
	});

	it('Download Recording with Include Recording off: a caught-up call has its recording as binary, without recording_url', async () => {
		const data = staticData('callCompleted');
		((data.registration as IDataObject).settings as IDataObject).include_recording_in_webhook =
			false;
		const missed = listCall(9001, DOWN_AT + MINUTE);
		listed([missed], 'callCompleted');
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query((query) => 'phone_number' in query)
			.reply(200, page([DELIVERED_LISTED], 1, 1));
		const cdn = nock('https://cdn.example.com');
		cdn.get('/recordings/9001.mp3').reply(200, Buffer.from('ID3-9001'));
		cdn.get(`/recordings/${DELIVERED_ID}.mp3`).reply(200, Buffer.from('ID3'));
		const ctx = registered.webhookContext({
			staticData: data,
			body: { ...PAYLOAD, recording_url: undefined },
			parameters: parameters({
				event: 'callCompleted',
				options: { downloadRecording: true, includeRecording: false },
			}),
		});
		const result = await trigger.webhook.call(ctx.context);
		const first = (
			result.workflowData as Array<Array<{ json: IDataObject; binary?: IDataObject }>>
		)[0][0];
		expect(first.json.id).toBe(9001);
		expect(first.json).not.toHaveProperty('recording_url');
		expect(first.binary?.data).toBeDefined();
	});
});
