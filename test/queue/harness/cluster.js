/**
 * n8n 2.x in queue mode for the suite: one main (`n8n start`), N workers
 * (`n8n worker`) and, for the trigger's scale-out, webhook processes
 * (`n8n webhook`, behind a balancer whose URL is every process's
 * WEBHOOK_URL), each with its own user folder (nothing on disk is shared),
 * the packed package installed in each as n8n installs community packages,
 * one PostgreSQL database and one Redis between them. Built from the shared
 * harness (test/harness/n8n): its environment with the queue-mode options,
 * its CLI, server and REST client.
 */
const fs = require('fs');
const path = require('path');
const registry = require('./registry');
const { tempDir } = require('./services');
const {
	runtimeEnv,
	packedTarball,
	installPackage,
	n8nEnvironment,
	n8nCli,
	importCredentials,
	importWorkflows,
	startN8n,
	waitUntil,
	restClient,
	freePort,
	OWNER: E2E_OWNER,
} = require('../../harness/n8n');

const ENCRYPTION_KEY = 'queue-test-encryption-key-0123456789';
/** The cluster's owner: an address, password and first name of its own (last name "Owner"). */
const OWNER = {
	...E2E_OWNER,
	email: 'owner@queue.test',
	password: 'Queue-Test-Password-1',
	firstName: 'Queue',
};
const BROWSER_ID = 'queue-suite-browser-0001';

/** A user folder with the packed package installed in `.n8n/nodes`. */
function createHome(name, tarball = packedTarball()) {
	const runtime = runtimeEnv();
	const folder = tempDir(`queue-n8n-${name}-`);
	installPackage(folder, tarball, runtime);
	return folder;
}

function ensureDir(dir) {
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

/**
 * Starts nothing yet: returns the cluster object whose `cli`, `startMain`,
 * `startWorker` use one shared environment (database, Redis, encryption key,
 * binary data mode) plus per-process ports and folders.
 */
async function createCluster({ postgres, redis, binaryDataMode = 'database', webhookUrl }) {
	const runtime = runtimeEnv();
	const mainPort = await freePort();
	const queue = { postgres, redis, mainPort, binaryDataMode };
	// the URL n8n gives the service for production webhooks: the main's own, or a balancer's
	const webhookEnv = webhookUrl ? { N8N_WEBHOOK_URL: `${webhookUrl}/` } : {};

	const mainFolder = createHome('main');
	const processEnv = async (folder, extra = {}) =>
		n8nEnvironment({
			runtime,
			folder,
			line: 'v2',
			owner: OWNER,
			encryptionKey: ENCRYPTION_KEY,
			// n8n's temp files (webhook bodies, data-table uploads) stay in the process's folder
			tmpDir: ensureDir(path.join(folder, 'tmp')),
			brokerPort: await freePort(),
			queue,
			extra,
		});
	const mainEnv = await processEnv(mainFolder, webhookEnv);
	// what every process shares: all but its folders, log file and broker port
	const {
		HOME,
		TMPDIR,
		N8N_USER_FOLDER,
		N8N_LOG_FILE_LOCATION,
		N8N_RUNNERS_BROKER_PORT,
		...shared
	} = mainEnv;
	const baseUrl = `http://127.0.0.1:${mainPort}`;
	const processes = [];
	const mainCli = n8nCli({ runtime, env: mainEnv, cwd: mainFolder, timeout: 180_000 });

	/** The process record of the suite for a spawned n8n (its logs, its stop). */
	function track(name, folder, env) {
		return (proc) => {
			registry.recordProcess(proc.pid, name);
			Object.assign(proc, {
				folder,
				logFile: env.N8N_LOG_FILE_LOCATION,
				log() {
					const files = [env.N8N_LOG_FILE_LOCATION, path.join(folder, 'stdout.log')];
					return files.map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '')).join('\n');
				},
			});
			processes.push(proc);
		};
	}
	const spawnOptions = (name, folder, env, args) => ({
		runtime,
		name,
		args,
		env,
		cwd: folder,
		outputFile: path.join(folder, 'stdout.log'),
		logFile: env.N8N_LOG_FILE_LOCATION,
		stop: { signal: 'SIGTERM', graceMs: 20_000 },
		timeoutMs: 180_000,
		stopOnFailure: false,
		onSpawn: track(name, folder, env),
	});

	const cluster = {
		baseUrl,
		mainPort,
		mainFolder,
		shared,
		processes,
		/** An n8n CLI command in the main's folder (the main need not run). */
		cli: mainCli,
		async importCredentials(credentials) {
			await importCredentials(mainCli, mainFolder, credentials);
		},
		/**
		 * Imports workflows, inactive. (`--activeState=fromJson` exists in queue mode,
		 * but on a fresh database the import runs before the env-managed owner is set
		 * up and its activation is refused: activate through the main instead.)
		 */
		async importWorkflows(workflows) {
			await importWorkflows(
				mainCli,
				mainFolder,
				workflows.map((w) => ({ settings: {}, ...w, active: false })),
				'workflows.json',
			);
		},
		async startMain() {
			const main = await startN8n({
				...spawnOptions('n8n-main', mainFolder, mainEnv, ['start']),
				what: 'the n8n main',
				baseUrl,
			});
			cluster.main = main;
			return main;
		},
		async startWorker(name, { concurrency = 5 } = {}) {
			const folder = createHome(name);
			const healthPort = await freePort();
			const env = await processEnv(folder, {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			});
			const worker = await startN8n({
				...spawnOptions(name, folder, env, ['worker', `--concurrency=${concurrency}`]),
				what: `worker ${name}`,
				baseUrl: `http://127.0.0.1:${healthPort}`,
			});
			worker.healthUrl = `http://127.0.0.1:${healthPort}/healthz/readiness`;
			// readiness answers once DB and Redis are connected; the job processor is set up right after
			await waitUntil(
				`worker ${name} listening to the queue`,
				() => /n8n worker is now ready/.test(worker.log()),
				{ child: worker.child, timeoutMs: 60_000 },
			);
			return worker;
		},
		/**
		 * An `n8n webhook` process on `port` (it receives production webhooks and
		 * enqueues their executions; the workers run them). Started again on the
		 * same port and folder when given the process it replaces (`again`).
		 */
		async startWebhookProcess(name, { port, again } = {}) {
			const folder = again?.folder ?? createHome(name);
			const env =
				again?.env ??
				(await processEnv(folder, { ...webhookEnv, N8N_PORT: String(port ?? (await freePort())) }));
			const proc = await startN8n({
				...spawnOptions(name, folder, env, ['webhook']),
				what: `webhook process ${name}`,
				baseUrl: `http://127.0.0.1:${env.N8N_PORT}`,
			});
			proc.env = env;
			proc.port = Number(env.N8N_PORT);
			await waitUntil(
				`webhook process ${name} waiting for requests`,
				() => /Webhook listener waiting for requests/.test(proc.log()),
				{ child: proc.child, timeoutMs: 60_000 },
			);
			return proc;
		},
		/** Which process logged "Worker started execution <id>", by execution id. */
		executionsByWorker() {
			const map = {};
			for (const p of processes) {
				for (const m of p.log().matchAll(/Worker started execution (\d+) \(job (\d+)\)/g)) {
					(map[m[1]] ||= []).push(p.name);
				}
			}
			return map;
		},
		async stopAll() {
			// workers first (they finish or give back their jobs), then the main
			for (const p of processes.filter((p) => p !== cluster.main)) await p.stop();
			if (cluster.main) await cluster.main.stop();
		},
	};
	return cluster;
}

/** A logged-in session of the owner on the main's REST API (the shared REST client, this suite's owner and browser id). */
async function login(baseUrl) {
	return await restClient(baseUrl, { owner: OWNER, browserId: BROWSER_ID });
}

module.exports = { createCluster, createHome, login, OWNER, ENCRYPTION_KEY };
