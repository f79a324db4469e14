/**
 * n8n 2.x in queue mode for the suite: one main (`n8n start`) and N workers
 * (`n8n worker`), each with its own user folder (nothing on disk is shared),
 * the packed package installed in each as n8n installs community packages,
 * one PostgreSQL database and one Redis between them.
 */
const { execFile, spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const registry = require('./registry');
const { runtimeEnv, packedTarball, installPackage } = require('./runtime');
const { freePort, waitUntil, stopChild, tempDir, runtimeModule } = require('./services');

const ENCRYPTION_KEY = 'queue-test-encryption-key-0123456789';
const OWNER = { email: 'owner@queue.test', password: 'Queue-Test-Password-1', firstName: 'Queue', lastName: 'Owner' };
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

function ownerPasswordHash() {
	return runtimeModule('bcryptjs').hashSync(OWNER.password, 10);
}

/**
 * Starts nothing yet: returns the cluster object whose `cli`, `startMain`,
 * `startWorker` use one shared environment (database, Redis, encryption key,
 * binary data mode) plus per-process ports and folders.
 */
async function createCluster({ postgres, redis, binaryDataMode = 'database' }) {
	const runtime = runtimeEnv();
	const mainPort = await freePort();
	const shared = {
		PATH: `${path.dirname(runtime.N8N_NODE_BIN)}:${process.env.PATH}`,
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_DEFAULT_BINARY_DATA_MODE: binaryDataMode,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_LOG_OUTPUT: 'file',
		N8N_LOG_LEVEL: 'info',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_PORT: String(mainPort),
		N8N_WEBHOOK_URL: `http://127.0.0.1:${mainPort}/`,
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: OWNER.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: OWNER.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: ownerPasswordHash(),
	};

	const mainFolder = createHome('main');
	const processEnv = async (folder, extra = {}) => ({
		...shared,
		HOME: folder,
		// n8n's temp files (webhook bodies, data-table uploads) stay in the process's folder
		TMPDIR: ensureDir(path.join(folder, 'tmp')),
		N8N_USER_FOLDER: folder,
		N8N_LOG_FILE_LOCATION: path.join(folder, 'n8n.log'),
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		...extra,
	});
	const mainEnv = await processEnv(mainFolder);
	const baseUrl = `http://127.0.0.1:${mainPort}`;
	const processes = [];

	function spawnN8n(name, folder, env, args) {
		const out = fs.openSync(path.join(folder, 'stdout.log'), 'a');
		const child = spawn(runtime.N8N_NODE_BIN, [runtime.N8N_BIN, ...args], { env, cwd: folder, stdio: ['ignore', out, out], detached: true });
		fs.closeSync(out);
		registry.recordProcess(child.pid, name);
		const proc = {
			name,
			folder,
			child,
			pid: child.pid,
			logFile: env.N8N_LOG_FILE_LOCATION,
			log() {
				const files = [env.N8N_LOG_FILE_LOCATION, path.join(folder, 'stdout.log')];
				return files.map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '')).join('\n');
			},
			async stop() {
				await stopChild(child, 'SIGTERM', 20_000);
			},
		};
		processes.push(proc);
		return proc;
	}

	const cluster = {
		baseUrl,
		mainPort,
		mainFolder,
		shared,
		processes,
		/** An n8n CLI command in the main's folder (the main need not run). */
		cli(args, timeout = 180_000) {
			return new Promise((resolve) => {
				execFile(runtime.N8N_NODE_BIN, [runtime.N8N_BIN, ...args], { env: mainEnv, cwd: mainFolder, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
					resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
				});
			});
		},
		async importCredentials(credentials) {
			const file = path.join(mainFolder, 'credentials.json');
			fs.writeFileSync(file, JSON.stringify(credentials));
			const r = await cluster.cli(['import:credentials', `--input=${file}`]);
			if (r.code !== 0) throw new Error(`import:credentials failed: ${r.stderr || r.stdout}`);
		},
		/**
		 * Imports workflows, inactive. (`--activeState=fromJson` exists in queue mode,
		 * but on a fresh database the import runs before the env-managed owner is set
		 * up and its activation is refused: activate through the main instead.)
		 */
		async importWorkflows(workflows) {
			const file = path.join(mainFolder, 'workflows.json');
			fs.writeFileSync(file, JSON.stringify(workflows.map((w) => ({ settings: {}, ...w, active: false }))));
			const r = await cluster.cli(['import:workflow', `--input=${file}`]);
			if (r.code !== 0) throw new Error(`import:workflow failed: ${r.stderr || r.stdout}`);
		},
		async startMain() {
			const main = spawnN8n('n8n-main', mainFolder, mainEnv, ['start']);
			await waitUntil('the n8n main', async () => (await fetch(`${baseUrl}/healthz/readiness`)).ok, { child: main.child, logFile: main.logFile, timeoutMs: 180_000 });
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
			const worker = spawnN8n(name, folder, env, ['worker', `--concurrency=${concurrency}`]);
			worker.healthUrl = `http://127.0.0.1:${healthPort}/healthz/readiness`;
			await waitUntil(`worker ${name}`, async () => (await fetch(worker.healthUrl)).ok, { child: worker.child, logFile: worker.logFile, timeoutMs: 180_000 });
			// readiness answers once DB and Redis are connected; the job processor is set up right after
			await waitUntil(`worker ${name} listening to the queue`, () => /n8n worker is now ready/.test(worker.log()), { child: worker.child, timeoutMs: 60_000 });
			return worker;
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

/** A logged-in session of the owner on the main's REST API (cookie + browser id). */
async function login(baseUrl) {
	const headers = { 'content-type': 'application/json', 'browser-id': BROWSER_ID };
	const res = await fetch(`${baseUrl}/rest/login`, { method: 'POST', headers, body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }) });
	if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	const request = async (method, url, body) => {
		const r = await fetch(`${baseUrl}${url}`, { method, headers: { ...headers, cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
		const text = await r.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = text;
		}
		return { status: r.status, body: json };
	};
	return {
		request,
		/** Publishes (activates) a workflow in the running main: webhooks and triggers are registered there. */
		async activate(id) {
			const wf = await request('GET', `/rest/workflows/${id}`);
			if (wf.status !== 200) throw new Error(`GET workflow ${id}: ${wf.status} ${JSON.stringify(wf.body)}`);
			const r = await request('POST', `/rest/workflows/${id}/activate`, { versionId: wf.body.data.versionId });
			if (r.status !== 200) throw new Error(`activate ${id}: ${r.status} ${JSON.stringify(r.body)}`);
			return r.body.data;
		},
		async deactivate(id) {
			const r = await request('POST', `/rest/workflows/${id}/deactivate`, {});
			if (r.status !== 200) throw new Error(`deactivate ${id}: ${r.status} ${JSON.stringify(r.body)}`);
			return r.body.data;
		},
	};
}

module.exports = { createCluster, createHome, login, OWNER, ENCRYPTION_KEY };
