/**
 * Nothing lost by the webhook trigger in a real `n8n start` against the simulator:
 * - calls that end while n8n is stopped (their deliveries fail and are never posted again)
 *   reach the workflow after the restart by themselves (the trigger's heartbeat reads the
 *   service's call list): each call exactly once, in an execution of its own, marked
 *   `caught_up`; the call delivered after the restart starts alone; a late redelivery of a
 *   caught-up call starts nothing;
 * - with Download Recording on, a recording that cannot be downloaded (the file storage,
 *   another origin than the API's, answers 500 or drops the connection) leaves each call's
 *   item without binary data and with `recording_error`; the API key goes to no origin but
 *   the API's.
 */
import fs from 'node:fs';
import path from 'node:path';

const {
	startSimulatorAndHome,
	inboundCallsWorkflow,
	KEY,
	waitFor,
	sleep,
	simPost,
	completeCall,
	addAssistant,
	webhookLive,
} = require('../harness/n8n');

const OUTAGE_ASSISTANT = 1; // the simulator's inbound assistant
const RECORDING_ASSISTANT = 201; // an inbound assistant added for the recording test
const OUTAGE_WORKFLOW = 'e2eOutageWf00001';
const RECORDING_WORKFLOW = 'e2eRecordingWf01';
const NODE = 'Call Ended';
const DOWN_CALLS = 30;
const RECORDING_CALLS = 5;

type Item = { json: Record<string, any>; binary?: Record<string, unknown> };
type Execution = { id: number; items: Item[] };

/** The call id an item stands for. */
const callIdOf = (item: Item) => Number(item.json.id ?? item.json.call_id);

describe('real n8n server: the trigger loses no call', () => {
	let sim: any;
	let home: any;
	let server: any;

	/** The finished executions of a workflow with their trigger's items, read from n8n's database; a failed one fails the test. */
	const executions = (workflowId: string): Execution[] => home.triggerExecutions(workflowId, NODE);
	const itemsOf = (workflowId: string) => executions(workflowId).flatMap((e) => e.items);

	async function endCall(assistantId: number, phone: string, endedSecondsAgo = 0) {
		// the call ran 95 s: it started before the delivery that came before it
		const completed = (await completeCall(sim, {
			assistant_id: assistantId,
			type: 'inbound',
			customer_phone: phone,
			duration: 95,
			ended_seconds_ago: endedSecondsAgo,
		})) as {
			call: { id: number };
			payload: Record<string, unknown>;
			deliveries: Array<{ kind: string; status: number | null; response: any; error?: string }>;
		};
		const delivery = completed.deliveries.find((d) => d.kind === 'inbound');
		if (!delivery) throw new Error(`no inbound delivery for call ${completed.call.id}`);
		return { id: completed.call.id, payload: completed.payload, delivery };
	}

	beforeAll(async () => {
		// no redelivery: what a delivery misses is lost at the service, as after its last retry
		({ sim, home } = await startSimulatorAndHome({
			simulator: { redeliveryDelaysMs: [], recordingHost: true },
		}));
		addAssistant(sim, OUTAGE_ASSISTANT, {
			id: RECORDING_ASSISTANT,
			uuid: '00000201-0000-4000-8000-000000000000',
			name: 'Recordings',
			phone_number_id: null,
			inbound_webhook_url: null,
			// the posted call data names no recording: the node has to ask the calls API for it
			include_recording_in_webhook: false,
		});
		await home.importWorkflows([
			inboundCallsWorkflow({
				id: OUTAGE_WORKFLOW,
				webhookId: '3e5b7c9d-1f2a-4b3c-8d4e-5f6a7b8c9d01',
				assistantId: OUTAGE_ASSISTANT,
			}),
			inboundCallsWorkflow({
				id: RECORDING_WORKFLOW,
				webhookId: '3e5b7c9d-1f2a-4b3c-8d4e-5f6a7b8c9d02',
				assistantId: RECORDING_ASSISTANT,
				options: { downloadRecording: true },
			}),
		]);
		await home.activate(OUTAGE_WORKFLOW, RECORDING_WORKFLOW);
		server = await home.start();
		await webhookLive(sim, OUTAGE_ASSISTANT);
		await webhookLive(sim, RECORDING_ASSISTANT);
	}, 240_000);

	afterAll(async () => {
		await server?.stop();
		await sim?.close();
		await home?.cleanup();
	});

	const ids: number[] = [];

	it(`${DOWN_CALLS} calls that end while n8n is stopped reach the workflow after the restart by themselves, each once, in an execution of its own`, async () => {
		const first = await endCall(OUTAGE_ASSISTANT, '+4915200000000');
		expect(first.delivery.status).toBe(200);
		ids.push(first.id);
		await waitFor('the execution of the first call', () => itemsOf(OUTAGE_WORKFLOW).length >= 1);

		server = await home.restart(server, async () => {
			for (let n = 1; n <= DOWN_CALLS; n++) {
				// the call ends now, while n8n is down; its delivery is posted (and fails) now
				const call = await endCall(OUTAGE_ASSISTANT, `+49152000000${String(n).padStart(2, '0')}`);
				// n8n is down: the delivery fails and the service gives up on it
				expect(call.delivery.status).toBeNull();
				ids.push(call.id);
			}
		});
		await webhookLive(sim, OUTAGE_ASSISTANT);
		// a call right after the restart starts alone; the missed ones come by themselves (the
		// heartbeat's rounds: 20 s after the start, a minute later, then every 2 minutes)
		const last = await endCall(OUTAGE_ASSISTANT, '+4915200000099');
		expect(last.delivery.status).toBe(200);
		ids.push(last.id);

		// on a time-out the comparison below names the calls that are missing
		await waitFor(
			`all ${ids.length} calls in the workflow`,
			() => new Set(itemsOf(OUTAGE_WORKFLOW).map(callIdOf)).size >= ids.length,
			150_000,
		).catch(() => undefined);
		await sleep(2000); // anything emitted twice would be there by now
		const items = itemsOf(OUTAGE_WORKFLOW);
		const received = items.map(callIdOf);
		expect([...received].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
		expect(received.filter((id, n) => received.indexOf(id) !== n)).toEqual([]);

		const down = new Set(ids.slice(1, 1 + DOWN_CALLS));
		const caughtUp = items.filter((item) => item.json.caught_up === true);
		expect(caughtUp.map(callIdOf).sort((a, b) => a - b)).toEqual([...down]);
		// the calls that were delivered are not marked
		for (const item of items.filter((i) => !down.has(callIdOf(i))))
			expect(item.json.caught_up).not.toBe(true);
		// each in an execution of its own, the delivered call's too; each with the call's data
		for (const execution of executions(OUTAGE_WORKFLOW)) expect(execution.items).toHaveLength(1);
		for (const item of caughtUp) {
			expect(item.json).toMatchObject({ assistant_id: OUTAGE_ASSISTANT, status: 'completed' });
			expect(JSON.stringify(item.json)).toContain(
				`+49152000000${String(ids.indexOf(callIdOf(item))).padStart(2, '0')}`,
			);
		}
	}, 300_000);

	it('a late delivery of a call that was caught up starts nothing', async () => {
		expect(ids).toHaveLength(DOWN_CALLS + 2);
		const before = executions(OUTAGE_WORKFLOW).length;
		for (const id of [ids[1], ids[DOWN_CALLS]]) {
			const delivery = (await completeCall(sim, { call_id: id, duration: 95 })).deliveries.find(
				(d: { kind: string }) => d.kind === 'inbound',
			);
			expect(delivery.status).toBe(200);
		}
		await sleep(2000);
		expect(executions(OUTAGE_WORKFLOW)).toHaveLength(before);
		const received = itemsOf(OUTAGE_WORKFLOW).map(callIdOf);
		expect(received).toHaveLength(DOWN_CALLS + 2);
	});

	it(`Download Recording, the recordings failing: ${RECORDING_CALLS} items with recording_error and no binary, the key sent to no other origin`, async () => {
		const rule = await simPost(sim, 'faults', {
			method: 'GET',
			path: '/__sim/recordings/*',
			rate: 1,
			kinds: ['refuse-500', 'lose-reset'],
		});
		expect(rule.status).toBe(200);
		await webhookLive(sim, RECORDING_ASSISTANT);
		const recordingIds: number[] = [];
		for (let n = 1; n <= RECORDING_CALLS; n++) {
			const call = await endCall(RECORDING_ASSISTANT, `+4915300000${String(n).padStart(3, '0')}`);
			expect(call.delivery.status).toBe(200);
			expect(call.payload).not.toHaveProperty('recording_url');
			recordingIds.push(call.id);
		}

		const items = await waitFor(
			`${RECORDING_CALLS} items`,
			() => {
				const got = itemsOf(RECORDING_WORKFLOW);
				return got.length >= RECORDING_CALLS && got;
			},
			90_000,
		);
		await sleep(1500);
		expect(itemsOf(RECORDING_WORKFLOW)).toHaveLength(RECORDING_CALLS);
		expect(items.map(callIdOf).sort((a: number, b: number) => a - b)).toEqual(recordingIds);
		for (const item of items) {
			expect(Object.keys(item.binary ?? {})).toEqual([]);
			expect(typeof item.json.recording_error).toBe('string');
			expect(item.json.recording_error).not.toBe('');
			expect(item.json.recording_error).not.toContain(KEY);
		}

		// the recordings live on their own origin; the node asked for each of them there, never with the key
		const recordingRequests = sim.recordingLog as Array<{
			origin: string;
			path: string;
			carriesKey: boolean;
			status: number | string;
		}>;
		expect(recordingRequests.length).toBeGreaterThanOrEqual(RECORDING_CALLS);
		for (const request of recordingRequests) {
			expect(request).toMatchObject({ origin: sim.recordingUrl, carriesKey: false });
			expect([500, 'reset']).toContain(request.status);
		}
		expect([...new Set(recordingRequests.map((r) => r.path))].sort()).toEqual(
			recordingIds.map((id) => `/__sim/recordings/${id}.mp3`).sort(),
		);
		// the recordings' addresses came from the calls API (the posted data named none), asked with the key
		const lookups = (
			sim.log as Array<{
				method: string;
				path: string;
				query: Record<string, unknown>;
				headers: Record<string, string>;
				status: number;
			}>
		).filter(
			(e) =>
				e.method === 'GET' &&
				e.path === '/api/user/calls' &&
				String(e.query.assistant_id) === String(RECORDING_ASSISTANT),
		);
		expect(lookups.length).toBeGreaterThanOrEqual(1);
		for (const lookup of lookups)
			expect([lookup.headers.authorization, lookup.status]).toEqual(['Bearer ***', 200]);
		// nor did the key land in what n8n stored or logged
		const stored = home.queryDb(
			`select d.data as data from execution_data d join execution_entity e on e.id = d.executionId where e.workflowId = '${RECORDING_WORKFLOW}'`,
		) as Array<{ data: string }>;
		for (const row of stored) expect(row.data).not.toContain(KEY);
		for (const file of ['n8n.log', 'n8n-start.log']) {
			const log = path.join(home.folder, file);
			if (fs.existsSync(log)) expect(fs.readFileSync(log, 'utf8')).not.toContain(KEY);
		}
	});
});

export {};
