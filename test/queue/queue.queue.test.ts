/**
 * The packed package in n8n's queue mode (n8n 2.41.1): one main, two
 * workers and two webhook processes behind a balancer (test/queue/harness/
 * balancer.js), each with its own user folder and the package installed, one
 * PostgreSQL database and one Redis (Debian's packages, started here on
 * loopback), the simulator as the service.
 *
 * - Lead imports of 500 items in 10 executions, enqueued by a production
 *   webhook on the main and run by the workers: with 2 workers each given the
 *   account's whole budget (429s, absorbed by the retries), with 2 workers
 *   given half each (the documented setting), and with 1 worker.
 * - The trigger activated on the main: completed calls, received by the
 *   webhook processes, become executions run by the workers, one per call;
 *   deactivation on the main removes the registration at the service. A burst,
 *   then one webhook process restarts while calls end (the balancer answers
 *   502 for it), then the main restarts while calls end: every call once,
 *   without redelivery.
 * - Document uploads from binary data in the `database` binary mode: a file
 *   received by the main and uploaded by a worker, and a file made on a worker.
 * - A worker killed (SIGKILL) during an import of 300 leads after about 100:
 *   the time until n8n marks the execution Error, that it is not run again,
 *   and the same import run again with the defaults (every lead once).
 *
 * Run with scripts/test-queue.sh (installs PostgreSQL/Redis if missing, builds,
 * packs, and cleans up every process even when this file dies).
 */
import * as fs from 'fs';

const { startPostgres, startRedis } = require('./harness/services');
const { createCluster, login } = require('./harness/cluster');
const {
	runtimeModule,
	listeningSockets,
	isLoopback,
	completeCall: endCall,
} = require('../harness/n8n');
const W = require('./harness/workflows');
const {
	runLeadImport,
	postLeads,
	finishedExecutions,
	SIM_LIMITS,
	phoneOf,
} = require('./harness/leadImport');
const { runKilledImport } = require('./harness/killedWorker');
const { startSimulator } = require('../simulator/server');
const { startBalancer } = require('./harness/balancer');
const {
	ASSISTANT_ID,
	SCALE_OUT_WEBHOOK_ID,
	suiteCredentials,
	suiteWorkflows,
	ids,
	pdfOf,
	filesUnder,
	writeReport,
	stopSuite,
} = require('./harness/suite');

/** What an import of 500 leads that stores every lead once comes to. */
const EVERY_LEAD_ONCE = {
	items: 500,
	created: 500,
	lost: 0,
	duplicates: 0,
	otherErrors: 0,
	outputItems: 500,
};
const WORKERS = ['worker-1', 'worker-2'];
// n8n's scale-out: webhook processes behind a balancer receive the service's calls
const WEBHOOK_PROCESSES = ['webhook-1', 'webhook-2'];
// 500 leads in 10 executions; a worker takes at most CONCURRENCY at once, so both get some
const EXECUTIONS = 10;
const PER_EXECUTION = 50;
const CONCURRENCY = 5;

describe('n8n queue mode: main, 2 workers, 2 webhook processes, PostgreSQL, Redis, the simulator', () => {
	let sim: any;
	let postgres: any;
	let redis: any;
	let cluster: any;
	let session: any;
	let flatted: any;
	let balancer: any;
	let webhookProcesses: any[] = [];
	const figures: any[] = [];
	/** The figures of the two-worker import with the default settings. */
	let twoWorkers: any;
	const ctx = () => ({ sim, postgres, cluster, flatted });
	/** Ends a call of the assistant at the simulator: the call and its webhook deliveries. */
	const completeCall = (fields: Record<string, unknown>): Promise<any> =>
		endCall(sim, { assistant_id: ASSISTANT_ID, ...fields });
	/** One import of 500 leads in EXECUTIONS executions (its figures go to the report). */
	const importLeads = async (
		label: string,
		role: string,
		path: string,
		series: number,
	): Promise<{ ran: string[][]; [field: string]: any }> => {
		const workflowId = ids[role];
		const options = { executions: EXECUTIONS, perExecution: PER_EXECUTION };
		const r = await runLeadImport(ctx(), { label, workflowId, path, series, ...options });
		figures.push(r.figures);
		return { ...r, ran: Object.values(r.workersOf) };
	};

	/**
	 * Runs one-lead executions of a workflow of its own until each worker has run one: the node's code
	 * loaded and n8n's paths compiled in both, with a budget (credential) no import uses.
	 */
	const warmUpWorkers = async () => {
		let next = 0;
		let started = 0;
		const post = async () => {
			const res = await postLeads(cluster, 'leads-warm', [
				{ phone: phoneOf(9, next++), name: 'Warm-up' },
			]);
			if (res.status === 200) started++;
			return res.status;
		};
		// the main serves an activated workflow's webhook a moment after the activation's answer
		await W.waitFor('the warm-up webhook', async () => (await post()) === 200, 60_000, 500);
		const ranOn = async () => {
			const rows = await finishedExecutions(postgres, ids.warmUp, started);
			expect(rows.map((r: any) => r.status)).toEqual(Array(started).fill('success'));
			const byWorker = cluster.executionsByWorker();
			return new Set(rows.flatMap((r: any) => byWorker[String(r.id)] ?? []));
		};
		for (let round = 0; round < 8 && (await ranOn()).size < WORKERS.length; round++) {
			expect(await Promise.all([post(), post(), post(), post()])).toEqual([200, 200, 200, 200]);
		}
		expect([...(await ranOn())].sort()).toEqual(WORKERS);
	};

	beforeAll(async () => {
		sim = await startSimulator({
			port: 0,
			rateLimit: SIM_LIMITS,
			latencyMs: 20,
			docProcessingMs: 300,
		});
		[postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
		flatted = runtimeModule('flatted');
		balancer = await startBalancer();
		cluster = await createCluster({
			postgres,
			redis,
			binaryDataMode: 'database',
			webhookUrl: balancer.url,
		});
		await cluster.importCredentials(suiteCredentials(sim.url, WORKERS.length));
		await cluster.importWorkflows(Object.values(suiteWorkflows()));
		await cluster.startMain();
		await Promise.all(
			WORKERS.map((name) => cluster.startWorker(name, { concurrency: CONCURRENCY })),
		);
		webhookProcesses = await Promise.all(
			WEBHOOK_PROCESSES.map((name) => cluster.startWebhookProcess(name)),
		);
		balancer.setBackends(webhookProcesses.map((p) => p.port));
		session = await login(cluster.baseUrl);
		// the scale-out trigger is activated by its test, once the first trigger is gone from the assistant
		for (const id of Object.values(ids)) if (id !== ids.scaleOut) await session.activate(id);
	}, 300_000);

	afterAll(async () => {
		try {
			writeReport(cluster, figures);
		} finally {
			await stopSuite({ cluster, postgres, redis, sim, balancer });
		}
	}, 120_000);

	it('the main, the workers, PostgreSQL and Redis listen on loopback only', () => {
		const roots = [
			...cluster.processes.map((p: any) => p.pid),
			postgres.pid,
			redis.pid,
			process.pid,
		];
		const sockets = listeningSockets(roots);
		const ports = sockets.map((s: any) => s.port);
		expect(ports).toEqual(
			expect.arrayContaining([cluster.mainPort, postgres.port, redis.port, sim.port]),
		);
		expect(sockets.filter((s: any) => !isLoopback(s.address))).toEqual([]);
	});

	it('lead import, 2 workers with the default settings (each the whole budget): every lead once, 429s under 10 %, under 2 % after the first collision', async () => {
		// Both workers warm, as the one-worker import's worker is (it ran the imports before it): a
		// worker's first execution of the node loads its code and n8n's paths compile, which took
		// about a second of this import's time before any lead was sent (4 requests in its first
		// second, against 63 and 70 in the warm imports after it).
		await warmUpWorkers();
		const r = await importLeads(
			'2 workers, default (1000/min burst 200)',
			'fullBudget',
			'leads-full',
			1,
		);
		// its time is judged against this machine's own pace (the one-worker import, below)
		twoWorkers = r.figures;
		expect(r.answers.every((a: any) => a.status === 200)).toBe(true);
		// the executions ran on the workers, on both of them
		const { ran } = r;
		expect(ran.every((names) => names.length === 1 && WORKERS.includes(names[0]))).toBe(true);
		expect(new Set(ran.map((n) => n[0]))).toEqual(new Set(WORKERS));
		expect(r.rows.map((row: any) => row.status)).toEqual(Array(EXECUTIONS).fill('success'));
		expect(r.figures).toMatchObject(EVERY_LEAD_ONCE);
		expect(
			r.outputs.every((o: any) => o.error === undefined && o.items.length === PER_EXECUTION),
		).toBe(true);
		expect(new Set(r.outputPhones)).toEqual(new Set(r.phones));
		// every 429 was retried; each process adapted its share.
		expect(r.figures.requests).toBe(500 + r.figures['429s']);
		// The workers' first collision costs the requests on their way when the account filled: at a
		// burst's pace (10 ms apart here) one per 10 ms of a worker's answer time, per worker. That grows
		// with the machine's load and with this layer's scale (limits × 10; at the service's real limits
		// a burst is paced 100 ms apart and the same collision costs a tenth), not with the sharing.
		// Measured on 2-core machines of the CI's kind, with cold workers: 0.6 % to 1.8 % in nine
		// fresh-clone runs, 4.4 %, 6.9 % and 7.9 % in three busier ones (11.3 % before the pacing of
		// docs/queue-mode.md); with both workers warm (warmUpWorkers), 0.6 % to 1.6 % in seven of ten and
		// 4.8 % to 4.9 % in three, whose workers still started apart (figures.timelineByWorker); since the
		// limiter checks its windows when a request goes, 0.4 % to 1.4 % in eight, then 0.4 % to 9.6 %
		// in eighteen more (median 2.3 %): a worker stalled for 100 to 300 ms (n8n's own work on two busy
		// cores) sends the requests due meanwhile together, and when that is the moment the account
		// fills, they are all refused (19 within 7 ms in the 9.6 % run). Checked: under 10 %.
		expect(r.figures['429s']).toBeLessThan(0.1 * r.figures.requests);
		// After it each worker works within its cut share: later 429s (over 2 s after the first one) are
		// what the sharing itself costs, whatever the machine. Measured 0 to 3 of about 510 while a busy
		// worker could send one request too many into a window; none in 26 runs since. Checked under 2 %.
		expect(r.figures.later429s).toBeLessThan(0.02 * r.figures.requests);
	}, 300_000);

	it('lead import, 2 workers, the budget divided between them: every lead once, no 429', async () => {
		const r = await importLeads(
			'2 workers, each 500/min burst 100',
			'splitBudget',
			'leads-split',
			2,
		);
		expect(new Set(r.ran.map((n) => n[0]))).toEqual(new Set(WORKERS));
		expect(r.rows.map((row: any) => row.status)).toEqual(Array(EXECUTIONS).fill('success'));
		expect(r.figures).toMatchObject({ ...EVERY_LEAD_ONCE, '429s': 0 });
	}, 300_000);

	it('the trigger, activated on the main: each completed call becomes one execution, run by a worker', async () => {
		const assistant = () => sim.state.assistants.find((a: any) => a.id === ASSISTANT_ID);
		const url = await W.waitFor(
			'the inbound webhook registration',
			() => assistant().inbound_webhook_url,
		);
		expect(url).toMatch(
			new RegExp(
				`^http://127\\.0\\.0\\.1:${balancer.port}/webhook/0c3f5a8e-6b1d-4e2f-9a7c-1d2e3f4a5b6d/webhook\\?assistant_id=1&secret=`,
			),
		);
		const calls = await Promise.all(
			[1, 2, 3].map(async (n) => {
				return await completeCall({ customer_phone: `+491510000090${n}` });
			}),
		);
		for (const c of calls)
			expect(c.deliveries.find((d: any) => d.kind === 'inbound').status).toBe(200);
		const rows = await W.waitFor('3 finished trigger executions', async () => {
			const r = await W.executionsOf(postgres, ids.trigger);
			return r.length >= 3 && r.every((e: any) => W.FINISHED.includes(e.status)) && r;
		});
		await new Promise((r) => setTimeout(r, 1500));
		const all = await W.executionsOf(postgres, ids.trigger, { withData: true, flatted });
		expect(all).toHaveLength(3);
		expect(rows.map((e: any) => e.status)).toEqual(['success', 'success', 'success']);
		const callIds = all.map((e: any) => W.nodeOutput(e.run, 'Call Ended').items[0]?.id);
		const byWorker = cluster.executionsByWorker();
		for (const e of all) {
			expect(byWorker[String(e.id)]).toHaveLength(1);
			expect(WORKERS).toContain(byWorker[String(e.id)][0]);
		}
		// one execution per call, each with its own call's data
		expect(callIds.sort()).toEqual(calls.map((c) => c.call.id).sort());
		const phones = all
			.map((e: any) => W.nodeOutput(e.run, 'Call Ended').items[0]?.customer_phone)
			.sort();
		expect(phones).toEqual(['+4915100000901', '+4915100000902', '+4915100000903']);
	}, 120_000);

	it('uploads a file received by the main: the worker reads the binary from the database', async () => {
		const { content, sha } = pdfOf(300 * 1024, 3);
		const res = await fetch(`${cluster.baseUrl}/webhook/upload-received`, {
			method: 'POST',
			headers: {
				'content-type': 'application/pdf',
				'content-disposition': 'attachment; filename="manual.pdf"',
			},
			body: content,
		});
		expect(res.status).toBe(200);
		const execution = await W.finishedUpload(postgres, ids.uploadFromMain, flatted);
		expect(execution.status).toBe('success');
		expect(WORKERS).toContain(cluster.executionsByWorker()[String(execution.id)]?.[0]);
		// the binary travelled through PostgreSQL, not a disk
		const binary = execution.run.resultData.runData.Webhook[0].data.main[0][0].binary.data;
		expect(binary.id).toMatch(/^database:/);
		expect(
			(
				await postgres.query('select count(*)::int as n from binary_data where "fileSize" = $1', [
					content.length,
				])
			)[0].n,
		).toBeGreaterThanOrEqual(1);
		const [doc] = W.nodeOutput(execution.run, 'Upload').items;
		expect(doc).toMatchObject({ name: 'Manual from the main', type: 'pdf', status: 'active' });
		expect(W.uploadsOf(sim, sha)).toHaveLength(1);
		expect(sim.state.documents.find((d: any) => d.id === doc.id).file).toMatchObject({
			filename: 'manual.pdf',
			sha256: sha,
		});
		// nothing of it on any process's disk (each has its own folder; the database holds the file)
		for (const p of cluster.processes) {
			const copies = filesUnder(p.folder).filter(
				(f: { file: string; size: number }) =>
					f.size === content.length ||
					(f.size < 5e6 && fs.readFileSync(f.file).includes(content.subarray(0, 4096))),
			);
			expect(copies).toEqual([]);
		}
	}, 120_000);

	it('uploads a file made on a worker (Convert to File → Document → Create)', async () => {
		const { content, sha } = pdfOf(40 * 1024, 5);
		const res = await fetch(`${cluster.baseUrl}/webhook/upload-made`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ content: content.toString('base64') }),
		});
		expect(res.status).toBe(200);
		const execution = await W.finishedUpload(postgres, ids.uploadFromWorker, flatted);
		expect(execution.status).toBe('success');
		expect(WORKERS).toContain(cluster.executionsByWorker()[String(execution.id)]?.[0]);
		expect(
			execution.run.resultData.runData['Convert to File'][0].data.main[0][0].binary.data.id,
		).toMatch(/^database:/);
		expect(W.nodeOutput(execution.run, 'Upload').items[0]).toMatchObject({
			name: 'Manual made on a worker',
			type: 'pdf',
			status: 'active',
		});
		expect(W.uploadsOf(sim, sha)).toHaveLength(1);
	}, 120_000);

	it('deactivating the trigger on the main removes the registration at the service', async () => {
		const assistant = () => sim.state.assistants.find((a: any) => a.id === ASSISTANT_ID);
		const disableCalls = () =>
			sim.log.filter((e: any) => e.path === '/api/user/assistants/disable-inbound-webhook');
		expect(disableCalls()).toHaveLength(0);
		await session.deactivate(ids.trigger);
		await W.waitFor('disable-inbound-webhook', () => disableCalls().length > 0, 30_000);
		expect(disableCalls()).toHaveLength(1);
		expect(disableCalls()[0]).toMatchObject({
			method: 'POST',
			status: 200,
			body: { assistant_id: ASSISTANT_ID },
		});
		expect(assistant().inbound_webhook_url).toBeNull();
		// a call completed now reaches nothing and starts nothing
		const completed = await completeCall({});
		expect(completed.deliveries.filter((d: any) => d.kind === 'inbound')).toEqual([]);
		await new Promise((r) => setTimeout(r, 1500));
		expect(await W.executionsOf(postgres, ids.trigger)).toHaveLength(3);
		// the registration is gone from the workflow's static data too
		const [wf] = await postgres.query('select "staticData" from workflow_entity where id = $1', [
			ids.trigger,
		]);
		expect(JSON.stringify(wf.staticData ?? {})).not.toContain('secret');
	}, 60_000);

	it('webhook processes behind a balancer: a burst, then one of them restarts (the balancer answers 502 for it meanwhile), then the main restarts while calls end; every call starts once', async () => {
		const assistant = () => sim.state.assistants.find((a: any) => a.id === ASSISTANT_ID);
		await session.activate(ids.scaleOut);
		const url = await W.waitFor('the registration through the balancer', () => {
			const u = assistant().inbound_webhook_url;
			return typeof u === 'string' && u.includes(SCALE_OUT_WEBHOOK_ID) && u;
		});
		expect(url.startsWith(`${balancer.url}/webhook/`)).toBe(true);
		let phone = 0;
		const complete = async () => {
			const body = await completeCall({
				customer_phone: `+49152000${String(++phone).padStart(4, '0')}`,
			});
			return {
				id: body.call.id as number,
				status: body.deliveries.find((d: any) => d.kind === 'inbound')?.status,
			};
		};
		/** Every item the trigger started, by call id (an execution holds caught-up calls beside its own). */
		const started = async () => {
			const runs = await W.executionsOf(postgres, ids.scaleOut, { withData: true, flatted });
			const items = runs.flatMap((e: any) => W.nodeOutput(e.run, 'Call Ended').items);
			return { runs, items };
		};
		// SPEC promises no redelivery of a call webhook: the service here makes none either
		const redelivery = sim.config.redeliveryDelaysMs;
		sim.setConfig({ redeliveryDelaysMs: [] });
		const before = balancer.log.length;
		// a burst: 12 calls end at once, the balancer gives each process half
		const burst = await Promise.all(Array.from({ length: 12 }, () => complete()));
		expect(burst.map((c) => c.status)).toEqual(Array(12).fill(200));
		const backends = new Set(balancer.log.slice(before).map((e: any) => e.backend));
		expect(backends.size).toBe(2);
		// the burst has run before webhook-1 stops (n8n 2.x answers each delivery once it has queued its
		// run): what is tested is the restart, and the calls that end while the process is down
		const deadline0 = Date.now() + 60_000;
		for (;;) {
			const ids = new Set((await started()).items.map((i: any) => i.id));
			if (burst.every((c) => ids.has(c.id)) || Date.now() > deadline0) break;
			await new Promise((r) => setTimeout(r, 500));
		}
		// webhook-1 stops; calls that end meanwhile and go its way get the balancer's 502
		const [first] = webhookProcesses;
		await first.stop();
		const during: Array<{ id: number; status: number }> = [];
		for (let i = 0; i < 6; i++) during.push(await complete());
		const refused = during.filter((c) => c.status === 502);
		expect(refused).toHaveLength(3);
		expect(during.filter((c) => c.status === 200)).toHaveLength(3);
		webhookProcesses[0] = await cluster.startWebhookProcess('webhook-1', { again: first });
		// then a call every 10 s, while the main (where the trigger's heartbeat runs) restarts: its
		// heartbeat starts again and must start none of these calls a second time
		let mainBack = false;
		const mainRestart = (async () => {
			await cluster.main.stop();
			await cluster.startMain();
			mainBack = true;
		})();
		const after: Array<{ id: number; status: number }> = [];
		const expected = () => [...burst, ...during, ...after].map((c) => c.id);
		const deadline = Date.now() + 300_000;

		for (;;) {
			after.push(await complete());
			await new Promise((r) => setTimeout(r, 10_000));
			const ids = new Set((await started()).items.map((i: any) => i.id));
			if ((mainBack && expected().every((id) => ids.has(id))) || Date.now() > deadline) break;
		}
		await mainRestart;
		// a round of the restarted main's heartbeat after the last call is a minute old (its first
		// round comes 20 s after the start, the second a minute later): nothing more starts
		await new Promise((r) => setTimeout(r, 3_000));
		const { runs, items } = await started();
		const count = new Map<number, number>();
		for (const item of items) count.set(item.id, (count.get(item.id) ?? 0) + 1);
		const missing = expected().filter((id) => !count.has(id));
		const twice = [...count].filter(([, n]) => n > 1).map(([id]) => id);
		expect({ missing, twice }).toEqual({ missing: [], twice: [] });
		expect(items).toHaveLength(expected().length);
		// the refused calls came through the catch-up; every call answered 200 by its own delivery
		const caughtUp = items.filter((i: any) => i.caught_up === true).map((i: any) => i.id);
		expect(caughtUp.sort()).toEqual(refused.map((c) => c.id).sort());
		expect(after.every((c) => c.status === 200)).toBe(true);
		// run by the workers, none by a webhook process
		const byWorker = cluster.executionsByWorker();
		for (const e of runs) expect(WORKERS).toContain(byWorker[String(e.id)]?.[0]);
		// eslint-disable-next-line no-console
		console.log(
			`Webhook processes: ${expected().length} calls, ${refused.length} answered 502 by the balancer while webhook-1 restarted, each started once (${caughtUp.length} caught up) in ${runs.length} executions; ${after.length} calls after the restart, 10 s apart`,
		);
		await session.deactivate(ids.scaleOut);
		sim.setConfig({ redeliveryDelaysMs: redelivery });
	}, 420_000);

	it("lead import, 1 worker (the other one stopped): every lead once, no 429; the 2 workers above took at most 1.15 × the least possible time, on this machine's pace", async () => {
		const second = cluster.processes.find((p: any) => p.name === 'worker-2');
		await second.stop();
		expect(second.child.exitCode !== null || second.child.signalCode !== null).toBe(true);
		const r = await importLeads('1 worker, 1000/min burst 200', 'oneWorker', 'leads-one', 3);
		expect(r.ran.every((names) => names.length === 1 && names[0] === 'worker-1')).toBe(true);
		expect(r.rows.map((row: any) => row.status)).toEqual(Array(EXECUTIONS).fill('success'));
		expect(r.figures).toMatchObject({ ...EVERY_LEAD_ONCE, '429s': 0 });
		// The two workers' time, judged against the least possible time on this machine's pace.
		// - The least possible time: two processes that cannot know of each other meet once when the
		//   account fills, and honour the first 429's Retry-After. The service gives it in whole
		//   seconds, so it asks them to wait up to a second beyond its window's opening (0.5 s on
		//   average, 2.5 % of this 20 s floor; at the service's real limits, of a 200 s one). That wait
		//   (askedBeyondOpeningSeconds, from the simulator) is added to the floor of the limits.
		// - The machine's pace: its own overhead (n8n's, the workers') is what one worker takes beyond
		//   1.08 × the floor, and it is allowed to the two workers as well. A slower machine moves both
		//   figures; a sharing that overshoots moves only the two workers'.
		// Measured on 2-core machines of the CI's kind, against the floor alone: 1.10 × to 1.22 × in ten
		// runs with warm workers, most of those over 1.15 × with a 429 in the last window (a busy worker
		// sent one request too many into it); since the limiter checks its windows when a request goes,
		// 1.07 × to 1.17 × in 26 (one worker alone 1.06 × to 1.09 ×); 1.07 × to 1.13 × the least possible
		// time in the eight runs that measured it. Checked: within 1.15 × the least possible time.
		expect(twoWorkers).toBeDefined();
		const machine = Math.max(1, r.figures.wallSeconds / r.figures.floorSeconds / 1.08);
		const least = twoWorkers.floorSeconds + twoWorkers.askedBeyondOpeningSeconds;
		expect(twoWorkers.wallSeconds).toBeLessThanOrEqual(1.15 * least * machine);
	}, 300_000);

	it('a worker killed during an import of 300 leads: the execution turns Error and is not run again; the import run again with the defaults stores every lead once', async () => {
		const r = await runKilledImport(ctx(), {
			workflowId: ids.runAgain,
			path: 'leads-again',
			series: 4,
			items: 300,
			killAt: 100,
			freshWorker: 'worker-3',
			concurrency: CONCURRENCY,
		});
		const f = r.figures;
		figures.push(f);
		expect(r.answers).toEqual([200, 200]);
		// the worker that ran the execution was found and killed while the execution was running
		expect(WORKERS).toContain(r.runner);
		expect(r.victims.map((p: any) => p.name)).toEqual([r.runner]);
		expect(['new', 'running']).toContain(r.statusAtKill);
		expect(f.storedAtKill).toBeGreaterThanOrEqual(100);
		expect(f.storedAtKill).toBeLessThan(300);
		// after the kill only what was on its way arrives (Requests in Flight is at most 32), then nothing
		expect(f.storedAfterKill - f.storedAtKill).toBeLessThanOrEqual(32);
		expect(r.requestsAfterKill.length).toBeLessThanOrEqual(32);
		expect(r.storedBeforeRerun).toBe(f.storedAfterKill);

		// n8n marks it Error (a stalled job, not retried) within the bound, and runs it nowhere else
		expect(['error', 'crashed']).toContain(f.killedStatus);
		expect(f.killedMessage).toContain('will no longer retry');
		expect(cluster.executionsByWorker()[r.killedId]).toEqual([r.runner]);
		expect(r.killedRecord.run?.resultData?.runData?.['Create Lead']).toBeUndefined();
		// no lead request between the end of the second run and the status: the killed one did not resume
		expect(r.requestsAfterRerun).toEqual([]);
		expect(r.executions.map((e: any) => String(e.id))).toEqual([r.killedId, String(r.rerun.id)]);

		// the second run, with the defaults: every item succeeds, the leads of the killed run come out as stored
		expect(r.rerun.status).toBe('success');
		expect(cluster.executionsByWorker()[String(r.rerun.id)]).toEqual(['worker-3']);
		expect(f).toMatchObject({
			rerunItems: 300,
			rerunErrorItems: 0,
			leadsStored: 300,
			duplicates: 0,
			alreadyStored: f.storedAfterKill,
		});
		expect(r.output.items.map((j: any) => j.phone_number)).toEqual(r.phones);
		// the items marked are exactly the leads the killed run stored, with their ids
		const before = new Map(r.storedBefore.map((l: any) => [l.phone_number, l.id]));
		expect(r.output.items.map((j: any) => j.already_stored === true)).toEqual(
			r.phones.map((phone: string) => before.has(phone)),
		);
		expect(
			r.output.items.filter((j: any) => j.already_stored).map((j: any) => [j.phone_number, j.id]),
		).toEqual([...before.entries()].sort());
		// one create per item, one read per lead already stored
		expect(f.rerunCreates).toBe(300);
		expect(f.rerunReads).toBe(f.storedAfterKill);
		expect(r.stored).toHaveLength(300);
	}, 420_000);
});

export {};
