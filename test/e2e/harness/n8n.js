/**
 * Drives a real n8n (installed by scripts/n8n-runtime/install.sh) for the
 * end-to-end tests: a throw-away user folder with the packed package installed
 * as n8n installs community packages, the CLI to import and execute
 * workflows, and `n8n start` for triggers.
 *
 * The n8n line comes from N8N_E2E_LINE: `v2` (default, n8n 2.x on Node 24
 * from the registry) or `v1` (n8n 1.123.x on the machine's Node 20). What
 * differs between the lines lives in LINES below, never in the tests.
 */
const { execFile, spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { freePort } = require('../../helpers/ports');

const ROOT = path.resolve(__dirname, '../../..');
const PACKAGE = 'n8n-nodes-voice-chat-assistant';
/** The owner account every test home has (2.x creates it from the environment at start, 1.x at the first home.rest()). */
const OWNER = { email: 'owner@example.com', password: 'E2e-Owner-Password-1', firstName: 'E2E', lastName: 'Owner' };

/** The differences between the n8n lines the e2e layer runs on. */
const LINES = {
	v2: {
		env: (runtime) => ({
			N8N_DISABLED_MODULES: 'mcp-registry', // this module calls out even with telemetry off
			// the owner account, created by n8n from the environment at start
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
			N8N_INSTANCE_OWNER_FIRST_NAME: OWNER.firstName,
			N8N_INSTANCE_OWNER_LAST_NAME: OWNER.lastName,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: require(path.join(runtime.N8N_RUNTIME_DIR, 'n8n/node_modules/bcryptjs')).hashSync(OWNER.password, 10),
		}),
		/** `update:workflow --active=true` is deprecated on 2.x */
		activateArgs: (id) => ['publish:workflow', `--id=${id}`],
		ownerFromEnv: true,
	},
	v1: {
		env: () => ({
			// isolated-vm does not build for Node 20; the task runners need it too
			N8N_EXPRESSION_ENGINE: 'legacy',
			N8N_RUNNERS_ENABLED: 'false',
			// 1.x rejects unknown module names in N8N_DISABLED_MODULES (there is no mcp-registry) and
			// has no owner from the environment: the first REST client claims the instance (POST /owner/setup)
		}),
		activateArgs: (id) => ['update:workflow', `--id=${id}`, '--active=true'],
		ownerFromEnv: false,
	},
};

function currentLine() {
	const line = process.env.N8N_E2E_LINE || 'v2';
	if (!LINES[line]) throw new Error(`N8N_E2E_LINE=${line}: use one of ${Object.keys(LINES).join(', ')}`);
	return line;
}

function runtimeEnv(line = 'v2') {
	const envFile = execFileSync('bash', [path.join(ROOT, 'scripts/n8n-runtime/install.sh'), line], { encoding: 'utf8' })
		.trim()
		.split('\n')
		.pop();
	const vars = {};
	for (const m of fs.readFileSync(envFile, 'utf8').matchAll(/^export (\w+)="(.*)"$/gm)) vars[m[1]] = m[2];
	return vars;
}


function packedTarball() {
	const dir = path.join(ROOT, '.tmp/pack');
	const file = fs.existsSync(dir) && fs.readdirSync(dir).find((f) => f.startsWith(PACKAGE) && f.endsWith('.tgz'));
	if (!file) throw new Error('No packed package in .tmp/pack: run `npm run build && npm pack --pack-destination .tmp/pack` (scripts/test.sh and scripts/test-queue.sh do)');
	return path.join(dir, file);
}

/**
 * Installs the packed package into `<folder>/.n8n/nodes` as n8n installs
 * community packages, for the runtime `runtime` (from runtimeEnv()).
 */
function installPackage(folder, tarball, runtime) {
	const nodesDir = path.join(folder, '.n8n/nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE);
	fs.mkdirSync(pkgDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '--strip-components=1', '-C', pkgDir]);
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE]: 'file:' + tarball } }, null, 2),
	);
	// npm installs the peer dependency next to the package; n8n's own copy stands in for it
	fs.symlinkSync(path.join(runtime.N8N_RUNTIME_DIR, 'n8n/node_modules/n8n-workflow'), path.join(nodesDir, 'node_modules/n8n-workflow'));
}

function killGroup(child) {
	try {
		process.kill(-child.pid, 'SIGKILL');
	} catch {}
}

/** Homes not cleaned up yet: if the test process exits without afterAll, their servers are killed and folders removed. */
const liveHomes = new Set();
process.once('exit', () => {
	for (const home of liveHomes) {
		for (const server of home.servers()) server.kill();
		try {
			fs.rmSync(home.folder, { recursive: true, force: true });
		} catch {}
	}
});

async function createN8nHome({ line = currentLine(), packageTarball = packedTarball() } = {}) {
	if (!LINES[line]) throw new Error(`unknown n8n line ${line}`);
	const runtime = runtimeEnv(line);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	installPackage(folder, packageTarball, runtime);

	const logFile = path.join(folder, 'n8n.log');
	const env = {
		PATH: `${path.dirname(runtime.N8N_NODE_BIN)}:${process.env.PATH}`,
		HOME: folder,
		N8N_USER_FOLDER: folder,
		N8N_ENCRYPTION_KEY: 'e2e-test-encryption-key-0123456789',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_LOG_OUTPUT: 'file',
		N8N_LOG_FILE_LOCATION: logFile,
		N8N_LOG_LEVEL: 'info',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		...LINES[line].env(runtime),
	};

	const cli = (args, timeout = 120_000) =>
		new Promise((resolve) => {
			execFile(runtime.N8N_NODE_BIN, [runtime.N8N_BIN, ...args], { env, cwd: folder, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
				resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
			});
		});

	const writeJson = (name, data) => {
		const file = path.join(folder, name);
		fs.writeFileSync(file, JSON.stringify(data));
		return file;
	};

	let workflowCounter = 0;
	let ownerClaimed = LINES[line].ownerFromEnv;
	const servers = new Set();
	const home = {
		line,
		folder,
		servers: () => [...servers],
		env,
		logFile,
		cli,
		/** Activates a workflow through the CLI (before `start`): the server registers its triggers at start. */
		async activate(workflowId) {
			const result = await cli(LINES[line].activateArgs(workflowId));
			if (result.code !== 0) throw new Error(`activating ${workflowId} failed (${result.code}): ${result.stderr || result.stdout}`);
		},
		/** A client of the running server's REST API, logged in as the owner (see restClient). */
		async rest(server) {
			const client = await restClient(server.baseUrl, { setupOwner: !ownerClaimed });
			ownerClaimed = true;
			return client;
		},
		async importCredentials(credentials) {
			const result = await cli(['import:credentials', `--input=${writeJson('credentials.json', credentials)}`]);
			if (result.code !== 0) throw new Error(`import:credentials failed: ${result.stderr || result.stdout}`);
		},
		async importWorkflow(workflow) {
			const wf = { active: false, settings: {}, ...workflow };
			if (!wf.id) wf.id = `e2eWorkflow${String(++workflowCounter).padStart(5, '0')}`;
			const result = await cli(['import:workflow', `--input=${writeJson(`workflow-${wf.id}.json`, wf)}`]);
			if (result.code !== 0) throw new Error(`import:workflow failed: ${result.stderr || result.stdout}`);
			return wf.id;
		},
		/** Executes a workflow through the CLI; `run` is the parsed run data. */
		async execute(workflowId) {
			const before = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
			const result = await cli(['execute', `--id=${workflowId}`, '--rawOutput']);
			const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(before) : '';
			const raw = `${result.stdout}\n${log}`;
			return { ok: result.code === 0, exitCode: result.code, run: extractRun(raw), raw, stderr: result.stderr };
		},
		/** Rows of a query on n8n's sqlite database (sqlite3 CLI, JSON mode). */
		queryDb(sql) {
			// n8n may hold a write lock at that moment (1.x without WAL): wait for it rather than fail
			const out = execFileSync('sqlite3', ['-json', '-cmd', '.timeout 15000', path.join(folder, '.n8n/database.sqlite'), sql], { encoding: 'utf8' });
			return out.trim() ? JSON.parse(out) : [];
		},
		/** `n8n start` on loopback; resolves once the server answers readiness and its REST API is mounted. cleanup() stops it if the test did not. */
		async start({ port } = {}) {
			port = port || (await freePort());
			const out = fs.openSync(path.join(folder, 'n8n-start.log'), 'a');
			const child = spawn(runtime.N8N_NODE_BIN, [runtime.N8N_BIN, 'start'], {
				env: { ...env, N8N_PORT: String(port) },
				cwd: folder,
				stdio: ['ignore', out, out],
				detached: true, // its own process group: stop() ends n8n and its task runners together
			});
			fs.closeSync(out);
			const exited = new Promise((r) => child.once('exit', r));
			const running = () => child.exitCode === null && child.signalCode === null;
			const server = {
				baseUrl: `http://127.0.0.1:${port}`,
				async stop() {
					servers.delete(server);
					if (!running()) return;
					try {
						process.kill(-child.pid, 'SIGTERM');
					} catch {}
					const timer = setTimeout(() => killGroup(child), 15_000);
					await exited;
					clearTimeout(timer);
					killGroup(child); // anything of the group still left
				},
				kill: () => killGroup(child),
			};
			servers.add(server);
			for (let i = 0; ; i++) {
				if (!running()) {
					servers.delete(server);
					throw new Error(`n8n exited with ${child.exitCode ?? child.signalCode}; see ${path.join(folder, 'n8n-start.log')}`);
				}
				try {
					// readiness answers before the REST controllers are mounted (1.x): wait for the login route too
					const ready = await fetch(`${server.baseUrl}/healthz/readiness`);
					await ready.arrayBuffer();
					if (ready.ok) {
						const login = await fetch(`${server.baseUrl}/rest/login`);
						await login.arrayBuffer();
						if (login.status !== 404) break;
					}
				} catch {}
				if (i === 240) {
					await server.stop();
					throw new Error('n8n did not become ready within 120 s');
				}
				await new Promise((r) => setTimeout(r, 500));
			}
			return server;
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

/**
 * A client of a running n8n's internal REST API, logged in as the owner (the
 * editor's own calls: auth cookie plus the same browser-id on every request).
 * With `setupOwner` it first claims a fresh instance as that owner (n8n 1.x,
 * which cannot create the owner from the environment).
 */
async function restClient(baseUrl, { email = OWNER.email, password = OWNER.password, setupOwner = false } = {}) {
	const browserId = `e2e-${process.pid}-${Date.now()}`;
	let cookie = '';
	const call = async (method, route, body) => {
		const res = await fetch(`${baseUrl}/rest${route}`, {
			method,
			headers: { 'content-type': 'application/json', 'browser-id': browserId, ...(cookie ? { cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		if (auth) cookie = auth;
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		if (!res.ok) throw new Error(`${method} /rest${route} answered ${res.status}: ${text.slice(0, 500)}`);
		return json?.data ?? json;
	};
	if (setupOwner) await call('POST', '/owner/setup', { email, password, firstName: OWNER.firstName, lastName: OWNER.lastName });
	await call('POST', '/login', { emailOrLdapLoginId: email, password });
	return {
		get: (route) => call('GET', route),
		post: (route, body) => call('POST', route, body),
		patch: (route, body) => call('PATCH', route, body),
		/** Deactivates a workflow in the running server, which removes its trigger's registration. */
		async deactivate(workflowId) {
			return await call('POST', `/workflows/${workflowId}/deactivate`, {});
		},
		/** Activates (publishes) a workflow in the running server, which registers its trigger; both lines want the current versionId. */
		async activate(workflowId) {
			const workflow = await call('GET', `/workflows/${workflowId}`);
			return await call('POST', `/workflows/${workflowId}/activate`, { versionId: workflow.versionId });
		},
		/**
		 * "Listen for test event" on a trigger, as the editor does: the manual run
		 * registers the trigger's test webhook and waits. 2.x reads the workflow from
		 * its database, 1.x takes it in the body.
		 */
		async listenForTestEvent(workflowId, triggerName) {
			const workflow = await call('GET', `/workflows/${workflowId}`);
			return await call('POST', `/workflows/${workflowId}/run`, { workflowData: workflow, triggerToStartFrom: { name: triggerName } });
		},
		/** Stops listening for a test event (the editor's stop button), which removes the test registration. */
		async stopListening(workflowId) {
			return await call('DELETE', `/test-webhook/${workflowId}`);
		},
	};
}

/** The run record printed by `execute --rawOutput`: the JSON object holding `resultData`/`runData` or `data`. */
function extractRun(text) {
	// with N8N_LOG_OUTPUT=file the record is the message of a JSON log line
	const fromLog = [];
	for (const line of text.split('\n')) {
		if (!line.startsWith('{') || !line.includes('runData')) continue;
		try {
			const entry = JSON.parse(line);
			if (typeof entry.message === 'string' && entry.message.trim().startsWith('{')) fromLog.push(JSON.parse(entry.message));
		} catch {}
	}
	if (fromLog.length) return fromLog.pop();
	const candidates = [];
	for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) {
		let depth = 0;
		let inString = false;
		for (let j = i; j < text.length; j++) {
			const c = text[j];
			if (inString) {
				if (c === '\\') j++;
				else if (c === '"') inString = false;
			} else if (c === '"') inString = true;
			else if (c === '{') depth++;
			else if (c === '}' && --depth === 0) {
				const slice = text.slice(i, j + 1);
				if (slice.includes('runData')) {
					try {
						candidates.push(JSON.parse(slice));
					} catch {}
				}
				i = j;
				break;
			}
		}
	}
	return candidates.pop();
}

/** Output items of a node in a run record. */
function outputOf(run, nodeName) {
	const runData = run?.data?.resultData?.runData ?? run?.resultData?.runData ?? run?.runData;
	const task = runData?.[nodeName]?.[0];
	return { items: task?.data?.main?.[0] ?? [], error: task?.error };
}

module.exports = { createN8nHome, restClient, outputOf, extractRun, freePort, runtimeEnv, packedTarball, installPackage, currentLine, ROOT, PACKAGE, OWNER, LINES };
