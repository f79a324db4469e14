/**
 * Every call once through n8n's own life, in a real `n8n start` against a simulator that never
 * delivers a call webhook twice (SPEC promises no redelivery of call webhooks):
 * - calls that ended before an activation never start the workflow;
 * - two deliveries at once start each call once, and after a restart nothing runs again;
 * - a publish of a changed version while a delivery waits (its recording download held by the
 *   simulator): every later delivery is accepted (no 401), each call once;
 * - a restart in a busy stream: the 30 calls that end while n8n is down (their deliveries refused)
 *   reach the workflow once each while calls keep arriving every 20 s;
 * - deactivate, calls end, (n8n restarts,) activate again: only the new call starts;
 * - Response Mode "When Last Node Finishes": the calls that end during the restart start once, and
 *   a second restart starts none of them again;
 * - calls that end while n8n is down, and no call after: each starts by itself (the trigger's
 *   heartbeat), in an execution of its own, soon after the start; so do the missed calls of the busy
 *   stream, never as extra items of a delivered call's execution;
 * - a webhook switched off in the service's dashboard while n8n is down is registered again at the start;
 * - calls delivered before the restart whose workflow answered nothing (Respond to Webhook, No
 *   Data: the service records no answer) do not start again after it.
 * One n8n for the file; the two restarts are named in their tests. Each scenario has its own assistant
 * and workflow; the tests run in order (the restart of the busy stream is the "after a restart"
 * of the others).
 */
const {
	startSimulatorAndHome,
	inboundCallsWorkflow,
	waitFor,
	sleep,
	completeCall,
	addAssistant,
	webhookLive,
} = require('../harness/n8n');

const NODE = 'Call Ended';
const STREAM = 301; // the busy stream (restart)
const REACTIVATED = 302; // deactivate and activate again
const LATE = 303; // calls that ended before the activation
const TOGETHER = 304; // two deliveries at once
const PUBLISHED = 305; // publish while a delivery waits
const WAITING = 306; // Response Mode "When Last Node Finishes", through both restarts
const SILENT = 307; // calls end while n8n is down, and none after
const EMPTY = 308; // Respond to Webhook with no data: the service records no answer
const ASSISTANTS = [STREAM, REACTIVATED, LATE, TOGETHER, PUBLISHED, WAITING, SILENT, EMPTY];
const SILENT_CALLS = 10;
/**
 * The heartbeat's rounds come 20 s after the start, a minute later (the calls that ended in the
 * minute before the first are left to their delivery), then every 2 minutes.
 */
const BY_ITSELF_MS = 120_000;
const workflowOf = (assistantId: number) => `e2eLifeWf000${assistantId}`;
const DOWN_CALLS = 30;
/** A call every this often after the restart, until every call arrived or STREAM_DEADLINE_MS passed. */
const STREAM_EVERY_MS = 20_000;
const STREAM_DEADLINE_MS = 180_000;
const ROUNDS_AT_ONCE = 4;

type Item = { json: Record<string, any>; binary?: Record<string, unknown> };
type Execution = { id: number; items: Item[] };
type Delivery = { url: string; kind: string; status: number | null; response: any };

function triggerWorkflow(
	assistantId: number,
	options: Record<string, unknown> = {},
	responseMode = 'onReceived',
) {
	return inboundCallsWorkflow({
		id: workflowOf(assistantId),
		name: `life ${assistantId}`,
		webhookId: `4f6a8b0c-2d3e-4f5a-9b6c-7d8e9f0a1${assistantId}`,
		assistantId,
		options,
		responseMode,
	});
}

/** The workflow of EMPTY: its trigger answers through a Respond to Webhook node with no data. */
function emptyAnswerWorkflow() {
	const workflow = triggerWorkflow(EMPTY, {}, 'responseNode');
	return {
		...workflow,
		nodes: [
			...workflow.nodes,
			{
				id: 'r',
				name: 'Respond',
				type: 'n8n-nodes-base.respondToWebhook',
				// 1.1 on refuses to run after a trigger other than n8n's own (the trigger's notice says so)
				typeVersion: 1,
				position: [200, 0],
				parameters: { respondWith: 'noData', options: {} },
			},
		],
		connections: { [NODE]: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] } },
	};
}

const callIdOf = (item: Item) => Number(item.json.id ?? item.json.call_id);
/** The ids that occur more than once. */
const twice = (ids: number[]) => [...new Set(ids.filter((id, n) => ids.indexOf(id) !== n))];
const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

describe('real n8n server: every call once through restarts, publishes and calls that end together', () => {
	let sim: any;
	let home: any;
	let server: any;
	const assistant = (id: number) => sim.state.assistants.find((a: { id: number }) => a.id === id);

	/** The finished executions of a workflow with their trigger's items (n8n's database); a failed one fails the test. */
	const executions = (assistantId: number): Execution[] =>
		home.triggerExecutions(workflowOf(assistantId), NODE);
	/** When each execution of an assistant's workflow started (epoch ms), by execution id. */
	function startedAt(assistantId: number): Map<number, number> {
		const rows = home.queryDb(
			`select id, startedAt from execution_entity where workflowId = '${workflowOf(assistantId)}'`,
		) as Array<{ id: number; startedAt: string | number }>;
		return new Map(
			rows.map((r) => [
				r.id,
				typeof r.startedAt === 'number'
					? r.startedAt
					: Date.parse(`${r.startedAt.replace(' ', 'T')}Z`),
			]),
		);
	}
	/** Each of the calls `ids` started in an execution of its own, as a caught-up call (n8n may run them side by side). */
	function expectOwnExecutions(assistantId: number, ids: number[]) {
		const own = executions(assistantId).filter((e) =>
			e.items.some((i) => ids.includes(callIdOf(i))),
		);
		const byCall = [...own].sort((a, b) => callIdOf(a.items[0]) - callIdOf(b.items[0]));
		expect(
			byCall.map((e) => ({
				calls: e.items.map(callIdOf),
				caughtUp: e.items.map((i) => i.json.caught_up),
			})),
		).toEqual(sorted(ids).map((id) => ({ calls: [id], caughtUp: [true] })));
		return own;
	}
	/** The call ids the workflow of an assistant started, one per item, in the order of its executions. */
	const started = (assistantId: number) =>
		executions(assistantId).flatMap((e) => e.items.map(callIdOf));

	/** Ends a call of the assistant; the simulator posts its inbound webhook (never again). */
	async function endCall(assistantId: number, { endedSecondsAgo = 0 } = {}) {
		const completed = (await completeCall(sim, {
			assistant_id: assistantId,
			type: 'inbound',
			duration: 95,
			ended_seconds_ago: endedSecondsAgo,
		})) as { call: { id: number }; deliveries: Delivery[] };
		return {
			id: completed.call.id,
			delivery: completed.deliveries.find((d) => d.kind === 'inbound'),
		};
	}
	/** Ends a call whose delivery n8n must accept. */
	async function deliveredCall(assistantId: number) {
		const call = await endCall(assistantId);
		expect([call.id, call.delivery?.status]).toEqual([call.id, 200]);
		// "Immediately" (all but WAITING): the trigger's body, also where n8n gives the answer
		if (assistantId !== WAITING) expect(call.delivery?.response).toEqual({ received: true });
		return call.id;
	}

	/** Waits until every id has started, then a little longer (a second start would be there by then). */
	async function settle(assistantId: number, ids: number[], timeoutMs = 60_000) {
		await waitFor(
			`calls ${ids.join(', ')} in the workflow of assistant ${assistantId}`,
			() => ids.every((id) => started(assistantId).includes(id)),
			timeoutMs,
		).catch(() => undefined); // the comparison that follows names what is missing
		await sleep(2500);
	}
	/** Every call of `ids` started exactly once, and nothing else. */
	function expectEachOnce(assistantId: number, ids: number[]) {
		const got = started(assistantId);
		expect({ startedTwice: twice(got), started: sorted(new Set(got)) }).toEqual({
			startedTwice: [],
			started: sorted(ids),
		});
	}

	const before: Record<number, number[]> = {};

	beforeAll(async () => {
		({ sim, home } = await startSimulatorAndHome({
			simulator: {
				// SPEC promises no redelivery of call webhooks: a refused delivery is lost at the service
				redeliveryDelaysMs: [],
				recordingHost: true,
				// a busy n8n on a loaded machine may answer slowly: a slow answer is not a lost delivery here
				webhookTimeoutMs: 30_000,
			},
		}));
		for (const id of ASSISTANTS) {
			addAssistant(sim, 1, {
				id,
				uuid: `00000${id}-0000-4000-8000-000000000000`,
				name: `Life ${id}`,
				phone_number_id: null,
				inbound_webhook_url: null,
			});
		}
		// calls of LATE that ended before its workflow is activated (2, 5 and 10 minutes before)
		before[LATE] = [];
		for (const ago of [600, 300, 120]) {
			const call = await endCall(LATE, { endedSecondsAgo: ago });
			expect(call.delivery).toBeUndefined();
			before[LATE].push(call.id);
		}
		await home.importWorkflows(
			ASSISTANTS.map((id) =>
				id === EMPTY
					? emptyAnswerWorkflow()
					: triggerWorkflow(
							id,
							id === PUBLISHED ? { downloadRecording: true } : {},
							id === WAITING ? 'lastNode' : 'onReceived',
						),
			),
		);
		await home.activate(...ASSISTANTS.map(workflowOf));
		server = await home.start();
		for (const id of ASSISTANTS) await webhookLive(sim, id);
	}, 300_000);

	afterAll(async () => {
		sim?.setConfig({ holdRecordings: false });
		await server?.stop();
		await sim?.close();
		await home?.cleanup();
	});

	it('calls that ended before the activation never start the workflow', async () => {
		const id = await deliveredCall(LATE);
		await settle(LATE, [id]);
		expectEachOnce(LATE, [id]);
	});

	const together: number[] = [];
	it(`two deliveries at once, ${ROUNDS_AT_ONCE} times: each call starts once`, async () => {
		for (let round = 0; round < ROUNDS_AT_ONCE; round++) {
			// the simulator posts both deliveries at the same moment
			const pair = await Promise.all([endCall(TOGETHER), endCall(TOGETHER)]);
			for (const call of pair) {
				expect([call.id, call.delivery?.status]).toEqual([call.id, 200]);
				together.push(call.id);
			}
		}
		await settle(TOGETHER, together);
		expectEachOnce(TOGETHER, together);
	});

	const reactivated: number[] = [];
	let deactivatedAt = 0;
	it('deactivate (the calls it ran before stay done): the webhook is removed', async () => {
		reactivated.push(await deliveredCall(REACTIVATED), await deliveredCall(REACTIVATED));
		await settle(REACTIVATED, reactivated);
		expectEachOnce(REACTIVATED, reactivated);
		const rest = await home.rest(server);
		expect((await rest.deactivate(workflowOf(REACTIVATED))).active).toBe(false);
		deactivatedAt = Date.now();
		await waitFor('the inbound webhook removal', () => !assistant(REACTIVATED).inbound_webhook_url);
	});

	const published: number[] = [];
	it('publish a changed version while a delivery waits for its recording: every later delivery is accepted (no 401), each call once', async () => {
		sim.setConfig({ holdRecordings: true });
		const recordings = sim.recordingLog.length;
		const deliveriesBefore = (sim.state.webhookDeliveries ?? []).length;
		published.push(await deliveredCall(PUBLISHED));
		// the delivery is in n8n's hands, downloading the recording, which the simulator holds
		await waitFor('the held recording download', () =>
			sim.recordingLog.slice(recordings).some((e: { held?: boolean }) => e.held),
		);
		// a changed version: the trigger's options changed (n8n 2.x re-registers only a trigger whose
		// parameters changed; 1.x removes and adds the workflow on every save), a node added
		const live = await home.publish(server, workflowOf(PUBLISHED), (workflow: any) => {
			const trigger = workflow.nodes.find((n: { name: string }) => n.name === NODE);
			trigger.parameters.options = { ...trigger.parameters.options, callStatuses: ['completed'] };
			workflow.nodes.push({
				id: 'n',
				name: 'After',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [240, 0],
				parameters: {},
			});
			workflow.connections = { [NODE]: { main: [[{ node: 'After', type: 'main', index: 0 }]] } };
		});
		expect(live.nodes.map((n: { name: string }) => n.name).sort()).toEqual(['After', NODE]);
		await webhookLive(sim, PUBLISHED);
		// published while the first delivery still waits
		expect(
			sim.recordingLog.slice(recordings).filter((e: { status: unknown }) => e.status === null),
		).toHaveLength(1);
		sim.setConfig({ holdRecordings: false });
		await settle(PUBLISHED, published);
		// the deliveries that follow, each checked below (a refused one is named with its status)
		for (let n = 0; n < 3; n++) published.push((await endCall(PUBLISHED)).id);
		const refused = sim.state.webhookDeliveries
			.slice(deliveriesBefore)
			.filter((d: Delivery) => d.kind === 'inbound' && d.status !== 200)
			.map((d: Delivery & { call_id: number }) => `call ${d.call_id}: ${d.status}`);
		expect(refused).toEqual([]);
		await settle(PUBLISHED, published);
		expectEachOnce(PUBLISHED, published);
		// the first call's item carries its recording, downloaded once the hold was lifted
		const first = executions(PUBLISHED)
			.flatMap((e) => e.items)
			.find((item) => callIdOf(item) === published[0]);
		expect(Object.keys(first?.binary ?? {})).toEqual(['data']);
	});

	const stream: number[] = [];
	const waiting: number[] = [];
	const silent: number[] = [];
	const empty: number[] = [];
	/** When n8n was back from the restart of the busy stream. */
	let back = 0;
	/** What n8n answered each delivery of WAITING (the service stores it as `webhook_response`). */
	const waitingAnswers: any[] = [];
	it(`restart in a busy stream (restarts n8n): ${DOWN_CALLS} calls that end while n8n is down reach the workflow once each, while a call comes every ${STREAM_EVERY_MS / 1000} s`, async () => {
		stream.push(await deliveredCall(STREAM));
		silent.push(await deliveredCall(SILENT));
		for (let n = 0; n < 2; n++) {
			const call = await endCall(EMPTY);
			// answered with no body: the call list shows no answer
			expect([call.delivery?.status, call.delivery?.response]).toEqual([200, null]);
			expect(sim.state.calls.find((c: { id: number }) => c.id === call.id).webhook_response).toBe(
				null,
			);
			empty.push(call.id);
		}
		await settle(STREAM, stream);
		await settle(SILENT, silent);
		await settle(EMPTY, empty);
		expectEachOnce(EMPTY, empty);
		server = await home.restart(server, async () => {
			for (let n = 0; n < SILENT_CALLS; n++) {
				const call = await endCall(SILENT);
				expect([call.id, call.delivery?.status]).toEqual([call.id, null]);
				silent.push(call.id);
			}
			for (let n = 0; n < DOWN_CALLS; n++) {
				const call = await endCall(STREAM);
				// n8n is down: the delivery is refused, and the service never sends it again
				expect([call.id, call.delivery?.status]).toEqual([call.id, null]);
				stream.push(call.id);
			}
			// switched off in the service's dashboard while n8n is down: the start registers it again
			assistant(TOGETHER).inbound_webhook_url = null;
			for (let n = 0; n < 3; n++) {
				const call = await endCall(WAITING);
				expect([call.id, call.delivery?.status]).toEqual([call.id, null]);
				waiting.push(call.id);
			}
		});
		back = Date.now();
		await webhookLive(sim, STREAM);
		// the stream goes on: a call every STREAM_EVERY_MS, until every call so far started (after at
		// least three of them) or the deadline passed
		const allStarted = () =>
			stream.every((id) => started(STREAM).includes(id)) &&
			waiting.every((id) => started(WAITING).includes(id));
		await webhookLive(sim, WAITING);
		for (let n = 0; ; n++) {
			stream.push(await deliveredCall(STREAM));
			const call = await endCall(WAITING);
			expect([call.id, call.delivery?.status]).toEqual([call.id, 200]);
			waiting.push(call.id);
			waitingAnswers.push(call.delivery?.response);
			const next = back + (n + 1) * STREAM_EVERY_MS;
			if (next > back + STREAM_DEADLINE_MS) break;
			const all = await waitFor(
				'the next call of the stream',
				() => (allStarted() ? 'all' : Date.now() >= next),
				STREAM_EVERY_MS * 2,
			);
			if (all === 'all' && n >= 2) break;
			if (Date.now() < next) await sleep(next - Date.now());
		}
		await settle(STREAM, stream, 20_000);
		expectEachOnce(STREAM, stream);
		// the missed calls came by themselves, each in an execution of its own
		expectOwnExecutions(STREAM, stream.slice(1, 1 + DOWN_CALLS));
		// When Last Node Finishes: every delivery was answered by the workflow with its own call's item
		await settle(WAITING, waiting, 20_000);
		expectEachOnce(WAITING, waiting);
		expectOwnExecutions(WAITING, waiting.slice(0, 3));
		expect(waitingAnswers.filter((a) => a?.caught_up !== undefined)).toEqual([]);
		for (const a of waitingAnswers) expect(waiting).toContain(Number(a?.id ?? a?.call_id));
	}, 420_000);

	it(`calls that ended while n8n was down, and none after: each starts by itself, in an execution of its own, within ${BY_ITSELF_MS / 1000} s of the start`, async () => {
		await settle(SILENT, silent, BY_ITSELF_MS);
		expectEachOnce(SILENT, silent);
		const own = expectOwnExecutions(SILENT, silent.slice(1));
		const at = startedAt(SILENT);
		const latest = Math.max(...own.map((e) => at.get(e.id) ?? Number.POSITIVE_INFINITY));
		expect(latest - back).toBeLessThan(BY_ITSELF_MS);
	});

	it('calls delivered before the restart whose workflow answered nothing (Respond to Webhook, No Data) start not again: neither the heartbeat rounds after the start nor the next delivery start them', async () => {
		// the first two rounds after the start (20 s, then a minute later) have read the list by then
		const rounds = back + 110_000 - Date.now();
		if (rounds > 0) await sleep(rounds);
		// and a call delivered now: its delivery starts only itself (a delivery that must first learn
		// the service's zone catches up too)
		const call = await endCall(EMPTY);
		expect([call.delivery?.status, call.delivery?.response]).toEqual([200, null]);
		await settle(EMPTY, [...empty, call.id], 30_000);
		expectEachOnce(EMPTY, [...empty, call.id]);
	});

	it('deactivated, n8n restarted while inactive, calls end, activate again: only the new call starts', async () => {
		// the calls end while the workflow is inactive (after the deactivation, a minute or two ago)
		const ago = Math.max(0, Math.min(120, Math.floor((Date.now() - deactivatedAt) / 1000) - 10));
		const inactive: number[] = [];
		for (let n = 0; n < 2; n++) {
			const call = await endCall(REACTIVATED, { endedSecondsAgo: ago });
			expect(call.delivery).toBeUndefined(); // no webhook registered: nothing is posted
			inactive.push(call.id);
		}
		const rest = await home.rest(server);
		await rest.activate(workflowOf(REACTIVATED));
		await webhookLive(sim, REACTIVATED);
		const id = await deliveredCall(REACTIVATED);
		await settle(REACTIVATED, [...reactivated, id]);
		expectEachOnce(REACTIVATED, [...reactivated, id]);
	});

	it('after the restart (of the busy stream), the workflow of the deliveries at once, whose webhook was switched off in the dashboard meanwhile, has it back and starts only the next call', async () => {
		expect(assistant(TOGETHER).inbound_webhook_url).toContain(`/webhook/`);
		const id = await deliveredCall(TOGETHER);
		await settle(TOGETHER, [...together, id]);
		expectEachOnce(TOGETHER, [...together, id]);
	});

	it('after the restart (of the busy stream), the workflow published during a delivery accepts the next call and starts only it', async () => {
		const id = await deliveredCall(PUBLISHED);
		await settle(PUBLISHED, [...published, id]);
		expectEachOnce(PUBLISHED, [...published, id]);
	});

	it('a second restart (restarts n8n): the "When Last Node Finishes" workflow starts none of the calls it caught up again', async () => {
		server = await home.restart(server, async () => {});
		await webhookLive(sim, WAITING);
		const id = await deliveredCall(WAITING);
		await settle(WAITING, [...waiting, id]);
		expectEachOnce(WAITING, [...waiting, id]);
	});
});

export {};
