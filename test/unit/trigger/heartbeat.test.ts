/**
 * The heartbeat (calls/heartbeat.ts): with no delivery at all, the trigger starts each call that
 * ended while n8n could not receive, in an execution of its own; while it runs, deliveries start
 * only their own call. Every test asserts the exact requests sent and the executions emitted.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData, ITriggerFunctions } from 'n8n-workflow';

import {
	HEARTBEAT_FIRST_MS,
	HEARTBEAT_MS,
	HEARTBEAT_SECOND_MS,
	TOOL_HEARTBEAT_MS,
	beat,
} from '../../../nodes/VoiceChatAssistantTrigger/calls/heartbeat';
import { reattachTools } from '../../../nodes/VoiceChatAssistantTrigger/midCallTool/toolHeartbeat';
import {
	MAX_ROUND_PAGES,
	MAX_STARTS,
} from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUp';
import { heartbeatGraceFrom } from '../../../nodes/VoiceChatAssistantTrigger/calls/catchUpState';
import { deliveryKey } from '../../../nodes/VoiceChatAssistantTrigger/core/payload';
import { remember } from '../../../nodes/VoiceChatAssistantTrigger/core/replays';
import { TEST_API_KEY, TEST_BASE_URL } from '../../helpers/context';
import {
	PRODUCTION_URL,
	TEST_URL,
	createHookContext,
	locator,
	requestLines,
} from '../../helpers/hookContext';
import { assistantService, trigger } from '../../helpers/registeredTrigger';
import {
	CALLS,
	DELIVERED,
	DELIVERED_ID,
	DELIVERED_START,
	DOWN_AT,
	MINUTE,
	NOW,
	listCall,
	listPages,
} from './catchUpFixtures';
import {
	BEFORE,
	DELIVERED_LISTED,
	execute,
	expectListOf,
	gapCalls,
	heartbeatClockPerTest,
	listQuery,
	registered,
	watermarked,
} from './catchUpHarness';

const ZONE_MINUTES = 60;
let time = NOW;
/** While set, the heartbeat's sleeps take no time (a delivery under way takes none either). */
let frozen = false;

/**
 * Turns of the event loop (each one a heartbeat sleep, so the fake time moves) until `done`, for
 * up to 20 s of real time: a loaded machine answers the mocked requests later, never fewer turns.
 */
async function turnsUntil(done: () => boolean): Promise<void> {
	const deadline = Date.now() + 20_000;
	while (!done() && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
}

heartbeatClockPerTest(() => {
	time = NOW;
	frozen = false;
	// time moves only when the heartbeat sleeps, one turn of the event loop per sleep
	return {
		now: () => time,
		sleep: async (ms: number) => {
			await new Promise((resolve) => setImmediate(resolve));
			if (!frozen) time += ms;
		},
		random: () => 0.5,
	};
});

/** The registration; assistant 34 watermarked at DOWN_AT, the service's zone known (UTC+1). */
const staticData = (zone: number | null = ZONE_MINUTES) => watermarked(registered, zone);

/** trigger()'s context: the executions it emits, one array of items each. */
function triggerContext(data: IDataObject, mode: 'trigger' | 'manual' = 'trigger') {
	const hook = createHookContext({ parameters: registered.parameters(), staticData: data, mode });
	const executions: IDataObject[][] = [];
	const context = {
		...hook.context,
		emit: (output: INodeExecutionData[][]) => executions.push(output[0].map((i) => i.json)),
	} as unknown as ITriggerFunctions;
	return { ...hook, context, executions };
}

/** The list request of the first page, answered with `calls` (newest first). */
function expectList(calls: IDataObject[]) {
	return expectListOf(() => listPages(calls))(1);
}

/** The list of `calls` for `reads` reads, each noting its time in `listedAt`. */
function listedEachRead(calls: IDataObject[], reads: number, listedAt: number[]) {
	return nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
		.get(CALLS)
		.query(listQuery(1))
		.times(reads)
		.reply(200, () => {
			listedAt.push(time);
			return listPages(calls)[0];
		});
}

/** Calls that started during the downtime, one every 3 minutes from 10:01 UTC (ids from 9001). */
function missed(count: number): IDataObject[] {
	return gapCalls(count).map(({ call }) => call);
}

describe('the heartbeat: missed calls arrive by themselves', () => {
	it('a round with no delivery starts each missed call in an execution of its own, oldest first, with one list request', async () => {
		const gap = missed(5);
		const scope = expectList([...gap, BEFORE]);
		const { context, executions, staticData: data } = triggerContext(staticData());
		expect(await beat(context)).toBe(5);
		expect(scope.isDone()).toBe(true);
		expect(executions.map((items) => items.map((i) => [i.id, i.caught_up]))).toEqual(
			gap.map((call) => [[call.id, true]]),
		);
		expect(executions[0][0]).toMatchObject({
			event: 'inboundCallCompleted',
			assistant_id: 34,
			customer_phone: gap[0].client_phone_number,
			caught_up: true,
		});
		// the watermark moved to a minute ago; the started calls are remembered
		const state = (data.catchUp as IDataObject).assistants as Record<string, IDataObject>;
		expect(state['34'].at).toBe(NOW - MINUTE);
		expect((state['34'].recent as number[][]).map(([id]) => id)).toEqual(gap.map((c) => c.id));
	});

	it('the next round starts none of them again, and a call answered by a workflow is never started', async () => {
		const gap = missed(3);
		const answered = listCall(9100, DOWN_AT + 50 * MINUTE, {
			webhook_response: { received: true },
		});
		expectList([...gap, answered, BEFORE]);
		const { context, executions, staticData: data } = triggerContext(staticData());
		await beat(context);
		expect(executions.flat().map((i) => i.id)).toEqual(gap.map((c) => c.id));
		time += HEARTBEAT_MS;
		const scope = expectList([...gap, answered, BEFORE]);
		const again = triggerContext(data);
		await beat(again.context);
		expect(scope.isDone()).toBe(true);
		expect(again.executions).toEqual([]);
	});

	it('a call this process received (its delivery under way) is left to it', async () => {
		const gap = missed(2);
		remember(deliveryKey('wf-1|trigger-1', 'inboundCallCompleted', { id: gap[1].id }) as string);
		expectList([...gap, BEFORE]);
		const { context, executions } = triggerContext(staticData());
		await beat(context);
		expect(executions.flat().map((i) => i.id)).toEqual([gap[0].id]);
	});

	it('deliveries answered in another n8n process (webhook processes) within 5 minutes: the round leaves the gap to them', async () => {
		const gap = missed(2);
		// answered through another process 3 minutes ago, after this process's heartbeat began
		const elsewhere = listCall(9200, NOW - 4 * MINUTE, { webhook_response: { received: true } });
		const { context, executions, logs } = triggerContext(staticData());
		await trigger.trigger.call(context).then((response) => response.closeFunction?.());
		// the heartbeat noted its start at NOW - 10 minutes
		time = NOW - 10 * MINUTE;
		const started = await trigger.trigger.call(context);
		time = NOW;
		const scope = expectList([elsewhere, ...gap, BEFORE]);
		expect(await beat(context)).toBe(0);
		expect(scope.isDone()).toBe(true);
		expect(executions).toEqual([]);
		expect(logs.map((l) => l.message).join('\n')).toContain(
			'call 9200 of assistant 34 reached this trigger through another n8n process',
		);
		await started.closeFunction?.();
	});

	it(`an outage of 1,200 calls: a round reads them whole (up to ${MAX_ROUND_PAGES} pages) and starts the oldest ${MAX_STARTS}, each alone; the next round the other 200`, async () => {
		// one call every 5 s from 10:01 UTC (ids from 9001): 1,200 calls in 100 minutes
		const gap = Array.from({ length: 1_200 }, (_, i) =>
			listCall(9001 + i, DOWN_AT + MINUTE + i * 5_000),
		);
		const pages = listPages([...gap, BEFORE]);
		const asked: string[] = [];
		// assistant 34's list; assistant 12 (watermarked at the first round) has no calls
		nock(TEST_BASE_URL)
			.get(CALLS)
			.query(true)
			.times(2 * pages.length + 1)
			.reply(200, (uri) => {
				const query = new URL(uri, TEST_BASE_URL).searchParams;
				if (query.get('assistant_id') !== '34') return { data: [], next_page_url: null };
				asked.push(`page ${query.get('page')}`);
				return pages[Number(query.get('page')) - 1];
			});
		const { context, executions, staticData: data, logs } = triggerContext(staticData());
		expect(await beat(context)).toBe(MAX_STARTS);
		expect(asked).toEqual(pages.map((_, n) => `page ${n + 1}`));
		expect(executions.map((items) => items.map((i) => i.id))).toEqual(
			gap.slice(0, MAX_STARTS).map((call) => [call.id]),
		);
		expect(logs.map((l) => l.message)).toContainEqual(
			expect.stringMatching(
				/caught up 1000 call\(s\) .*ids 9001, 9002, 9003, \.\.\. 10000\); 200 more start at the next catch-up$/,
			),
		);
		// the watermark stays before the end of the first call left (10001 ended a minute after it started)
		const entry = ((data.catchUp as IDataObject).assistants as Record<string, IDataObject>)['34'];
		expect(entry.at).toBe(DOWN_AT + MINUTE + MAX_STARTS * 5_000 + MINUTE);
		time += HEARTBEAT_MS;
		asked.length = 0;
		const next = triggerContext(data);
		expect(await beat(next.context)).toBe(200);
		expect(next.executions.map((items) => items[0].id)).toEqual(
			gap.slice(MAX_STARTS).map((call) => call.id),
		);
	});

	it('the zone not known yet: the round waits quietly (debug) and starts nothing', async () => {
		expectList([...missed(2), BEFORE]);
		const { context, executions, logs } = triggerContext(staticData(null));
		expect(await beat(context)).toBe(0);
		expect(executions).toEqual([]);
		expect(logs.filter((l) => l.level === 'warn')).toEqual([]);
		expect(logs.map((l) => `${l.level} ${l.message}`).join('\n')).toContain(
			"debug Voice Chat Assistant Trigger: could not catch up the calls of assistant 34: the call list's time zone is not known yet",
		);
	});

	it('the zone not known yet and no delivery: a call that starts between two rounds teaches it, and the second round starts the missed calls', async () => {
		const gap = missed(2);
		expectList([...gap, BEFORE]);
		const { context, executions, staticData: data } = triggerContext(staticData(null));
		expect(await beat(context)).toBe(0);
		// a minute later: a call that started 30 s ago is listed (it ends in the round after)
		time += HEARTBEAT_SECOND_MS;
		const fresh = listCall(9500, time - 30_000);
		const scope = expectList([fresh, ...gap, BEFORE]);
		const next = triggerContext(data);
		expect(await beat(next.context)).toBe(2);
		expect(scope.isDone()).toBe(true);
		expect(next.executions.map((items) => items.map((i) => i.id))).toEqual(
			gap.map((call) => [call.id]),
		);
		expect(executions).toEqual([]);
		expect((data.catchUp as IDataObject).zone).toBe(ZONE_MINUTES);
	});

	it('the zone not known yet: two rounds with no new call between them learn nothing and start nothing', async () => {
		expectList([...missed(2), BEFORE]);
		const { context, staticData: data } = triggerContext(staticData(null));
		expect(await beat(context)).toBe(0);
		time += HEARTBEAT_SECOND_MS;
		expectList([...missed(2), BEFORE]);
		const next = triggerContext(data);
		expect(await beat(next.context)).toBe(0);
		expect(next.executions).toEqual([]);
		expect((data.catchUp as IDataObject).zone).toBeUndefined();
	});

	it('a list that fails: logged, nothing started, the watermark stays for the next round', async () => {
		nock(TEST_BASE_URL).get(CALLS).query(listQuery(1)).reply(401, { message: 'Unauthenticated.' });
		const { context, executions, logs, staticData: data } = triggerContext(staticData());
		expect(await beat(context)).toBe(0);
		expect(executions).toEqual([]);
		expect(
			logs.some(
				(l) =>
					l.level === 'warn' &&
					/could not catch up the calls of assistant 34 .*; the next round tries again$/.test(
						l.message,
					),
			),
		).toBe(true);
		const state = (data.catchUp as IDataObject).assistants as Record<string, IDataObject>;
		expect(state['34'].at).toBe(DOWN_AT);
	});
});

describe('trigger(): when n8n starts the heartbeat, and what a delivery does meanwhile', () => {
	it(`the first round ${HEARTBEAT_FIRST_MS / 1000} s after the start, the second ${HEARTBEAT_SECOND_MS / 1000} s later, then every ${HEARTBEAT_MS / 60_000} minutes; closing stops it`, async () => {
		const gap = missed(2);
		// assistant 34's list in each round (assistant 12, watermarked at the first round, from the second)
		const rounds: number[] = [];
		const listed = (uri: string) => {
			if (uri.includes('assistant_id=34')) rounds.push(time - NOW);
			return uri.includes('assistant_id=34') ? listPages([...gap, BEFORE])[0] : listPages([])[0];
		};
		nock(TEST_BASE_URL).get(CALLS).query(true).times(5).reply(200, listed);
		const { context, executions } = triggerContext(staticData());
		const response = await trigger.trigger.call(context);
		await turnsUntil(() => rounds.length >= 3);
		await response.closeFunction?.();
		expect(rounds).toEqual([
			HEARTBEAT_FIRST_MS,
			HEARTBEAT_FIRST_MS + HEARTBEAT_SECOND_MS,
			HEARTBEAT_FIRST_MS + HEARTBEAT_SECOND_MS + HEARTBEAT_MS,
		]);
		expect(executions.flat().map((i) => i.id)).toEqual(gap.map((c) => c.id));
		// stopped: no round after the close
		const at = time;
		for (let n = 0; n < 200; n++) await new Promise((resolve) => setImmediate(resolve));
		expect(time - at).toBeLessThanOrEqual(1_000);
	});

	it('a manual run, and the events that are neither a call nor a mid-call tool (WhatsApp, chats), start no heartbeat', async () => {
		const manual = triggerContext(staticData(), 'manual');
		await (await trigger.trigger.call(manual.context)).closeFunction?.();
		const chat = createHookContext({
			parameters: registered.parameters({ event: 'conversationEnded' }),
			staticData: staticData(),
		});
		await (
			await trigger.trigger.call(chat.context as unknown as ITriggerFunctions)
		).closeFunction?.();
		for (let n = 0; n < 100; n++) await new Promise((resolve) => setImmediate(resolve));
		expect(time).toBe(NOW);
		expect(manual.sent).toEqual([]);
	});

	it('execute() passes the items n8n hands it on unchanged (a delivery, a test delivery, a round)', async () => {
		const items = [{ json: { id: 1 } }, { json: { id: 2, caught_up: true } }];
		for (const mode of ['webhook', 'manual', 'trigger']) {
			const hook = createHookContext({ parameters: registered.parameters(), staticData: {} });
			expect(await execute(hook, mode, items)).toEqual([items]);
		}
	});

	it('with the heartbeat running, a delivery starts only its own call, with no list request', async () => {
		const { context } = triggerContext(staticData());
		const started = await trigger.trigger.call(context);
		const { items, sent } = await registered.deliver({
			staticData: staticData(),
			body: { ...DELIVERED, created_at: new Date(DELIVERED_START).toISOString() },
		});
		await started.closeFunction?.();
		expect(sent).toEqual([]);
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
	});

	it('with the heartbeat running but the zone not known yet, a verified delivery teaches the zone and starts only its own call; the heartbeat starts the missed calls at once, each in an execution of its own', async () => {
		const { context, executions } = triggerContext(staticData(null));
		const started = await trigger.trigger.call(context);
		const payload = { ...DELIVERED, created_at: new Date(DELIVERED_START).toISOString() };
		const gap = missed(2);
		const listedAt: number[] = [];
		const scope = listedEachRead([DELIVERED_LISTED, ...gap, BEFORE], 2, listedAt);
		// the delivery arrives at the start and takes no time: only a woken round comes before 20 s
		frozen = true;
		const {
			items,
			sent,
			staticData: data,
		} = await registered.deliver({
			staticData: staticData(null),
			body: payload,
		});
		frozen = false;
		// the delivery: its own call only, the zone learned from the list (one request)
		expect(sent).toHaveLength(1);
		expect(items.map((i) => [i.id, i.caught_up])).toEqual([[DELIVERED_ID, undefined]]);
		expect((data.catchUp as IDataObject).zone).toBe(ZONE_MINUTES);
		await turnsUntil(() => executions.length >= gap.length);
		await started.closeFunction?.();
		expect(scope.isDone()).toBe(true);
		// the woken round came before the first scheduled one, and started each missed call alone
		expect(listedAt[1] - NOW).toBeLessThan(HEARTBEAT_FIRST_MS);
		expect(executions.map((run) => run.map((i) => [i.id, i.caught_up]))).toEqual(
			gap.map((call) => [[call.id, true]]),
		);
	});

	it(`n8n just started (the heartbeat not yet running): a delivery leaves the catch-up to it for ${2} minutes`, async () => {
		heartbeatGraceFrom(NOW - MINUTE);
		const { items, sent } = await registered.deliver({ staticData: staticData(), body: DELIVERED });
		expect(sent).toEqual([]);
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
	});
});

describe("the mid-call tool's round: its place among the assistants' tools", () => {
	/** The tool 50 registered for assistants 12 and 13 (added to both), and a test listener's tool 60. */
	function toolStaticData(): IDataObject {
		const definition = {
			name: 'check_free_slot',
			description: 'Checks a slot.',
			timeout: 8,
			schema: [],
		};
		return {
			midCallTools: [
				{
					toolId: 50,
					webhookUrl: PRODUCTION_URL,
					secret: 's',
					definition,
					assistants: [12, 13],
					attached: [12, 13],
				},
				{
					toolId: 60,
					webhookUrl: TEST_URL,
					secret: 't',
					definition,
					assistants: [12],
					attached: [12],
				},
			],
		};
	}
	function toolContext(assistants: Array<{ id: number; tool_ids?: number[] }>) {
		assistantService(assistants);
		const hook = createHookContext({
			parameters: { event: 'midCallTool', assistantId: locator(12), toolName: 'check_free_slot' },
			staticData: toolStaticData(),
		});
		return { ...hook, context: hook.context as unknown as ITriggerFunctions };
	}

	it("a tool another change dropped from an assistant is added again, keeping its other tools; the test listener's tool is left alone", async () => {
		const assistants = [
			{ id: 12, tool_ids: [1, 50] },
			{ id: 13, tool_ids: [7] },
		];
		const { context, sent, logs } = toolContext(assistants);
		expect(await reattachTools(context)).toBe(1);
		expect(requestLines(sent)).toEqual([
			'GET /api/user/assistants/get page=1',
			'PUT /api/user/assistant/13 {"tool_ids":[7,50]}',
			'GET /api/user/assistants/get page=1',
		]);
		expect(assistants.map((a) => a.tool_ids)).toEqual([
			[1, 50],
			[7, 50],
		]);
		expect(logs.map((l) => l.message)).toContain(
			"Voice Chat Assistant Trigger: mid-call tool 50 was no longer among assistant 13's tools (another change of its tools dropped it); adding it again",
		);
	});

	it('where the tool is in place, a round only reads the assistant list', async () => {
		const { context, sent } = toolContext([
			{ id: 12, tool_ids: [50] },
			{ id: 13, tool_ids: [50, 7] },
		]);
		expect(await reattachTools(context)).toBe(0);
		expect(requestLines(sent)).toEqual(['GET /api/user/assistants/get page=1']);
	});

	it(`trigger() of a mid-call tool: a round ${HEARTBEAT_FIRST_MS / 1000} s after the start, then every ${TOOL_HEARTBEAT_MS / 60_000} minutes`, async () => {
		const reads: number[] = [];
		const assistants = [
			{ id: 12, tool_ids: [50] },
			{ id: 13, tool_ids: [50] },
		];
		nock(TEST_BASE_URL)
			.get('/api/user/assistants/get')
			.query(true)
			.times(2)
			.reply(() => {
				reads.push(time - NOW);
				return [200, { current_page: 1, data: assistants, last_page: 1, next_page_url: null }];
			});
		const { context } = createHookContext({
			parameters: { event: 'midCallTool', assistantId: locator(12), toolName: 'check_free_slot' },
			staticData: toolStaticData(),
		});
		const response = await trigger.trigger.call(context as unknown as ITriggerFunctions);
		await turnsUntil(() => reads.length >= 2);
		await response.closeFunction?.();
		expect(reads).toEqual([HEARTBEAT_FIRST_MS, HEARTBEAT_FIRST_MS + TOOL_HEARTBEAT_MS]);
	});
});

describe('Listen for test event on an active workflow: a test never costs production a call', () => {
	it('a test delivery is answered at once, marked; the heartbeat of the active workflow starts that call too', async () => {
		const { items, response } = await registered.deliver({
			mode: 'manual',
			webhookUrl: TEST_URL,
			staticData: staticData(),
			body: DELIVERED,
		});
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(response.body).toEqual({ received: true, test_listener: true });
		// the call list shows the test run's answer; the production trigger's round starts the call
		const taken = listCall(9300, DOWN_AT + 20 * MINUTE, {
			webhook_response: { received: true, test_listener: true },
		});
		const wrapped = listCall(9301, DOWN_AT + 30 * MINUTE, {
			webhook_response: { status: 200, body: { received: true, test_listener: true } },
		});
		expectList([taken, wrapped, BEFORE]);
		const { context, executions } = triggerContext(staticData());
		await beat(context);
		expect(executions.map((e) => e.map((i) => [i.id, i.caught_up]))).toEqual([
			[[9300, true]],
			[[9301, true]],
		]);
	});

	it("a workflow that never had a production delivery (the zone not known): the test delivery teaches the running heartbeat the zone, without writing the test run's static data, and the rounds start the missed calls and then the test's call, each alone", async () => {
		const { context, executions } = triggerContext(staticData(null));
		const started = await trigger.trigger.call(context);
		const payload = { ...DELIVERED, created_at: new Date(DELIVERED_START).toISOString() };
		const gap = missed(2);
		const listedAt: number[] = [];
		const taken = listCall(DELIVERED_ID, DELIVERED_START, {
			duration: 73,
			webhook_response: { received: true, test_listener: true },
		});
		const scope = listedEachRead([taken, ...gap, BEFORE], 2, listedAt);
		frozen = true;
		const {
			items,
			response,
			staticData: data,
		} = await registered.deliver({
			mode: 'manual',
			webhookUrl: TEST_URL,
			staticData: staticData(null),
			body: payload,
		});
		frozen = false;
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(response.body).toEqual({ received: true, test_listener: true });
		expect((data.catchUp as IDataObject).zone).toBeUndefined();
		await turnsUntil(() => executions.length >= gap.length + 1);
		await started.closeFunction?.();
		expect(scope.isDone()).toBe(true);
		// the woken round came before the first scheduled one (the test's call ended a minute before)
		expect(listedAt[1] - NOW).toBeLessThan(HEARTBEAT_FIRST_MS);
		expect(executions.map((run) => run.map((i) => [i.id, i.caught_up]))).toEqual([
			...gap.map((call) => [[call.id, true]]),
			[[DELIVERED_ID, true]],
		]);
	});

	it('"When Last Node Finishes": a test delivery is answered at once all the same, marked', async () => {
		const { items, response } = await registered.deliver({
			mode: 'manual',
			webhookUrl: TEST_URL,
			staticData: staticData(),
			body: DELIVERED,
			parameters: registered.parameters({ responseMode: 'lastNode' }),
		});
		expect(items.map((i) => i.id)).toEqual([DELIVERED_ID]);
		expect(response.body).toEqual({ received: true, test_listener: true });
	});
});
