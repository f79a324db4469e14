/**
 * An n8n home: a throw-away user folder with the packed package installed as
 * n8n installs community packages, the CLI to import, activate and execute
 * workflows, and `n8n start` for triggers. What the e2e tests, the benchmarks
 * and try-it run n8n in.
 *
 * The n8n line comes from N8N_E2E_LINE: `v2` (default, n8n 2.x on Node 24
 * from the registry) or `v1` (n8n 1.123.x on the machine's Node 20). What
 * differs between the lines lives in LINES (environment.js), never in the tests.
 */
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { runtimeEnv, runtimeModule, packedTarball, installPackage } = require('./runtime');
const { LINES, currentLine, n8nEnvironment } = require('./environment');
const {
	n8nCli,
	importCredentials,
	importWorkflows,
	activateWorkflow,
	executeWorkflow,
} = require('./cli');
const { startN8n } = require('./server');
const { seedDatabase, writeCredentials, writeWorkflows } = require('./database');
const { restClient } = require('./rest');
const { freePort } = require('./processes');
const { outputOf } = require('./workflows');

/** Homes not cleaned up yet: if the process exits without cleanup(), their servers are killed and folders removed. */
const liveHomes = new Set();
process.once('exit', () => {
	for (const home of liveHomes) {
		for (const server of home.servers()) server.kill();
		try {
			fs.rmSync(home.folder, { recursive: true, force: true });
		} catch {
			// already gone, or still held by a process that is exiting
		}
	}
});

async function createN8nHome({ line = currentLine(), packageTarball = packedTarball() } = {}) {
	if (!LINES[line]) throw new Error(`unknown n8n line ${line}`);
	const runtime = runtimeEnv(line);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	installPackage(folder, packageTarball, runtime);

	const logFile = path.join(folder, 'n8n.log');
	const env = n8nEnvironment({ runtime, folder, line, logFile, brokerPort: await freePort() });
	const cli = n8nCli({ runtime, env, cwd: folder });
	await seedDatabase(folder, runtime, cli);

	let workflowCounter = 0;
	let ownerClaimed = LINES[line].ownerFromEnv;
	const servers = new Set();
	/** One logged-in REST client per running server, for createWorkflow and run. */
	const clients = new WeakMap();
	const clientOf = async (server) => {
		if (!clients.has(server)) clients.set(server, await home.rest(server));
		return clients.get(server);
	};
	const flatted = () => runtimeModule('flatted', runtime);
	const home = {
		line,
		folder,
		runtime,
		servers: () => [...servers],
		env,
		logFile,
		cli,
		/**
		 * Activates workflows before `start` (the server registers their triggers at start) with one
		 * statement on n8n's database: what n8n's own `publish:workflow` (2.x) and
		 * `update:workflow --active=true` (1.x) write (WorkflowRepository.publishVersion /
		 * updateActiveState: `active` and `activeVersionId = versionId`), without one CLI boot of
		 * n8n per workflow. `activateWithCli` takes the CLI's way.
		 */
		async activate(...workflowIds) {
			if (servers.size)
				throw new Error('activate() is for a stopped n8n: use rest(server).activate()');
			const ids = workflowIds.flat();
			const quoted = ids.map((id) => `'${String(id).replace(/'/g, "''")}'`).join(', ');
			home.queryDb(
				`update workflow_entity set active = 1, activeVersionId = versionId where id in (${quoted})`,
			);
			const rows = home.queryDb(
				`select id from workflow_entity where active = 1 and activeVersionId = versionId and id in (${quoted})`,
			);
			if (rows.length !== new Set(ids).size)
				throw new Error(`activating ${ids.join(', ')}: ${rows.length} found in n8n's database`);
		},
		/** Activates a workflow through n8n's CLI (one n8n boot). */
		async activateWithCli(workflowId) {
			await activateWorkflow(cli, line, workflowId);
		},
		/** A client of the running server's REST API, logged in as the owner (see restClient). */
		async rest(server) {
			const client = await restClient(server.baseUrl, { setupOwner: !ownerClaimed });
			ownerClaimed = true;
			return client;
		},
		/** Creates a workflow in the running server, as the editor saves a new one (no CLI boot); returns its id. */
		async createWorkflow(server, workflow) {
			const rest = await clientOf(server);
			const { id, active: _active, ...wf } = workflow;
			const created = await rest.post('/workflows', {
				settings: {},
				...wf,
				// 1.x stores what it is sent: a new workflow is inactive
				active: false,
				name: wf.name ?? id ?? `e2e workflow ${++workflowCounter}`,
			});
			return created.id;
		},
		/**
		 * Runs a workflow that starts with a Manual Trigger in the running `server`, as the editor's
		 * "Execute workflow" does (POST /rest/workflows/:id/run, mode "manual"), and waits until the
		 * execution has ended: execute()'s result without a boot of n8n per run. `raw` is the
		 * execution record as JSON, then what n8n logged meanwhile.
		 */
		async run(server, workflowId, { timeoutMs = 150_000 } = {}) {
			const rest = await clientOf(server);
			// what n8n writes meanwhile (its log and its output) goes into `raw`, as execute()'s does
			const logs = [logFile, path.join(folder, 'n8n-start.log')];
			const sizes = logs.map((file) => (fs.existsSync(file) ? fs.statSync(file).size : 0));
			const written = () =>
				logs
					.map((file, n) =>
						fs.existsSync(file) ? fs.readFileSync(file, 'utf8').slice(sizes[n]) : '',
					)
					.join('\n');
			const workflowData = await rest.get(`/workflows/${workflowId}`);
			const trigger = workflowData.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
			if (!trigger) throw new Error(`run(): workflow ${workflowId} has no Manual Trigger`);
			// 2.x reads the workflow from its database and strips workflowData; 1.x runs workflowData
			const started = await rest.post(`/workflows/${workflowId}/run`, {
				workflowData,
				triggerToStartFrom: { name: trigger.name },
			});
			if (!started?.executionId)
				throw new Error(`run(): n8n started no execution: ${JSON.stringify(started)}`);
			const end = Date.now() + timeoutMs;
			for (;;) {
				const execution = await rest.get(`/executions/${started.executionId}`);
				const data =
					typeof execution?.data === 'string' ? flatted().parse(execution.data) : execution?.data;
				const ended = execution && !['new', 'running', 'waiting'].includes(execution.status);
				// 1.x can mark the execution ended before it has written its run data: read again until
				// the run data (at least the Manual Trigger's) or the run's error is there
				const recorded =
					Object.keys(data?.resultData?.runData ?? {}).length > 0 || data?.resultData?.error;
				if (ended && recorded) {
					const run = {
						data,
						finished: execution.finished,
						mode: execution.mode,
						status: execution.status,
					};
					const error = data?.resultData?.error;
					const ok = execution.status === 'success' && !error;
					return {
						ok,
						why: ok
							? undefined
							: `execution ${started.executionId} ended ${execution.status}: ${error?.message ?? '?'}`,
						run,
						raw: `${JSON.stringify(run)}\n${written()}`,
						stderr: '',
					};
				}
				if (Date.now() > end)
					throw new Error(`run(): execution ${started.executionId} still ${execution?.status}`);
				await new Promise((r) => setTimeout(r, 250));
			}
		},
		/**
		 * Publishes a changed version of an active workflow in the running server (rest.publish:
		 * `edit(workflow)` changes what the editor would save) and resolves once n8n has put it
		 * live: 1.x within the save; 2.x in the background, through its publication outbox
		 * (table `workflow_publication_outbox`), whose entry for the new version must complete
		 * (a trigger whose registration did not change is kept as it was, one that changed is
		 * removed and added). Answers the workflow as published.
		 */
		async publish(server, workflowId, edit, { timeoutMs = 60_000 } = {}) {
			const rest = await home.rest(server);
			const published = await rest.publish(workflowId, edit);
			const end = Date.now() + timeoutMs;
			for (;;) {
				const row = home.latestPublication(
					workflowId,
					published.activeVersionId ?? published.versionId,
				);
				if (row === null || row?.status === 'completed') return published;
				if (row && !['pending', 'in_progress'].includes(row.status))
					throw new Error(`publishing ${workflowId}: ${row.status} ${row.errorMessage ?? ''}`);
				if (Date.now() > end)
					throw new Error(`publishing ${workflowId}: still ${row?.status ?? 'not queued'}`);
				await new Promise((r) => setTimeout(r, 250));
			}
		},
		/**
		 * The latest entry of 2.x's publication outbox for a workflow (and version, when given):
		 * `{status, errorMessage}`, undefined when there is none yet, null on 1.x (no outbox:
		 * activation and removal finish within the request).
		 */
		latestPublication(workflowId, versionId) {
			const outbox = home.queryDb(
				"select name from sqlite_master where type = 'table' and name = 'workflow_publication_outbox'",
			);
			if (!outbox.length) return null;
			const version = versionId ? ` and publishedVersionId = '${versionId}'` : '';
			const [row] = home.queryDb(
				`select status, errorMessage from workflow_publication_outbox where workflowId = '${workflowId}'${version} order by id desc limit 1`,
			);
			return row;
		},
		/**
		 * Resolves once n8n has finished every activation or removal of the workflow it was asked
		 * for (2.x runs them in the background from its outbox, which the request fills before it
		 * answers; 1.x within the request). Answers the last entry's status.
		 */
		async publicationsDone(workflowId, { timeoutMs = 60_000 } = {}) {
			const end = Date.now() + timeoutMs;
			for (;;) {
				const row = home.latestPublication(workflowId);
				if (row === null) return 'done';
				if (row && !['pending', 'in_progress'].includes(row.status)) return row.status;
				if (Date.now() > end)
					throw new Error(`publication of ${workflowId}: still ${row?.status ?? 'not queued'}`);
				await new Promise((r) => setTimeout(r, 250));
			}
		},
		/**
		 * Saves credentials (`{id, name, type, data}`, as `import:credentials` reads them) for the
		 * owner: in n8n's database when the home has one (no CLI boot), else through the CLI.
		 */
		async importCredentials(credentials) {
			if (!writeCredentials(home, credentials)) await importCredentials(cli, folder, credentials);
		},
		async importWorkflow(workflow) {
			const [id] = await home.importWorkflows([workflow]);
			return id;
		},
		/**
		 * Imports workflows, inactive, for the owner; returns their ids. New ones are written to n8n's
		 * database as `import:workflow` writes them (no CLI boot); any other case (an id n8n has
		 * already, a credential named without its id) takes one CLI command for all.
		 */
		async importWorkflows(workflows) {
			const list = workflows.map((workflow) => {
				const wf = { active: false, settings: {}, ...workflow };
				if (!wf.id) wf.id = `e2eWorkflow${String(++workflowCounter).padStart(5, '0')}`;
				return wf;
			});
			if (!writeWorkflows(home, list))
				await importWorkflows(cli, folder, list, `workflows-${list[0].id}-${list.length}.json`);
			return list.map((wf) => wf.id);
		},
		/** Executes a workflow through the CLI; `run` is the parsed run data. */
		async execute(workflowId) {
			return await executeWorkflow(cli, workflowId, logFile);
		},
		/** Rows of a query on n8n's sqlite database (sqlite3 CLI, JSON mode). */
		queryDb(sql) {
			// n8n may hold a write lock at that moment (1.x without WAL): wait for it rather than fail
			const out = execFileSync(
				'sqlite3',
				['-json', '-cmd', '.timeout 15000', path.join(folder, '.n8n/database.sqlite'), sql],
				{ encoding: 'utf8' },
			);
			return out.trim() ? JSON.parse(out) : [];
		},
		/** The executions of a workflow in n8n's database, oldest first: `[{id, status}]`. */
		executions(workflowId) {
			return home.queryDb(
				`select id, status from execution_entity where workflowId = '${workflowId}' order by id`,
			);
		},
		/**
		 * The run data of an execution as n8n stores it (flatted JSON text), or '' while n8n has not
		 * written it yet: n8n inserts the execution's row and its data in two statements, so a waiter
		 * can see the one before the other.
		 */
		executionData(executionId) {
			const [row] = home.queryDb(
				`select data from execution_data where executionId = ${executionId}`,
			);
			return row ? String(row.data) : '';
		},
		/**
		 * The finished executions of a workflow with the items of its node `nodeName` (its trigger):
		 * `[{id, items}]`, oldest first. An execution that ended in an error throws, naming it.
		 */
		triggerExecutions(workflowId, nodeName) {
			const rows = home.queryDb(
				`select e.id as id, e.status as status, d.data as data from execution_entity e left join execution_data d on d.executionId = e.id where e.workflowId = '${workflowId}' order by e.id`,
			);
			const failed = rows.find((r) => ['error', 'crashed', 'canceled'].includes(r.status));
			if (failed) {
				const run = failed.data ? flatted().parse(String(failed.data)) : undefined;
				const error = run?.resultData?.error ?? outputOf(run, nodeName).error;
				throw new Error(
					`execution ${failed.id} of ${workflowId} ended ${failed.status}: ${error?.message ?? 'no error recorded'}`,
				);
			}
			return rows
				.filter((r) => r.status === 'success' && r.data)
				.map((r) => ({
					id: r.id,
					items: outputOf(flatted().parse(String(r.data)), nodeName).items,
				}));
		},
		/** `n8n start` on loopback; resolves once the server answers readiness and its REST API is mounted. cleanup() stops it if the test did not. */
		async start({ port } = {}) {
			port = port || (await freePort());
			const baseUrl = `http://127.0.0.1:${port}`;
			let server;
			await startN8n({
				runtime,
				args: ['start'],
				env: { ...env, N8N_PORT: String(port) },
				cwd: folder,
				outputFile: path.join(folder, 'n8n-start.log'),
				// its own process group: stop() ends n8n and its task runners together
				stop: { graceMs: 15_000, sweep: true },
				baseUrl,
				restMounted: true,
				timeoutMs: 120_000,
				intervalMs: 500,
				onSpawn(proc) {
					server = {
						baseUrl,
						/** n8n's process id, which is also its process group's (its task runners are in the group) */
						pid: proc.pid,
						async stop() {
							servers.delete(server);
							await proc.stop();
						},
						kill: () => proc.kill(),
					};
					servers.add(server);
				},
			}).catch((error) => {
				servers.delete(server);
				throw error;
			});
			return server;
		},
		/**
		 * Stops `server`, runs `whileStopped` (what happens while n8n is down), then starts n8n again
		 * on the same port, so that the URLs it registered (webhooks) are its URLs again.
		 */
		async restart(server, whileStopped) {
			const port = Number(new URL(server.baseUrl).port);
			await server.stop();
			if (whileStopped) await whileStopped();
			return await home.start({ port });
		},
		/** Stops any server still running (a failed test) and removes the user folder. */
		async cleanup() {
			for (const server of [...servers]) await server.stop();
			fs.rmSync(folder, { recursive: true, force: true });
			liveHomes.delete(home);
		},
	};
	liveHomes.add(home);
	return home;
}

module.exports = { createN8nHome };
