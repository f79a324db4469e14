/* Starts the simulator and a real n8n with the package and the examples (see try-it.sh). */
const fs = require('fs');
const path = require('path');
const net = require('net');
const { createN8nHome, freePort, tryItEnv, spawnN8n, waitUntil, isReady, credential } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');
const { readExamples, copyExampleFiles, tryItCopy } = require('./try-it-examples');

const CREDENTIAL = { id: 'simulatorCred001', name: 'Voice Chat Assistant (simulator)' };
const OWNER = { email: 'demo@example.com', password: 'Demo-Password-1', firstName: 'Demo', lastName: 'User' };
/** The example to open first: it runs from the editor without any setup. */
const FIRST_EXAMPLE = 'lead-import-from-csv.json';
/** How long n8n may take to answer its REST API (a slow or busy machine takes minutes). */
const READY_MS = 300_000;

const progress = (text) => console.log(`  ${text}`);

/** True when nothing listens on 127.0.0.1:`port` and it can be bound. */
function portFree(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** `wanted` (from the environment) as is; else `preferred` when free, else a free port. */
async function choosePort(wanted, preferred) {
	if (wanted) return { port: Number(wanted), moved: false };
	if (await portFree(preferred)) return { port: preferred, moved: false };
	return { port: await freePort(), moved: true };
}

async function main() {
	const simPort = await choosePort(process.env.SIM_PORT, 4010);
	const sim = await startSimulator({ port: simPort.port });
	progress(`Simulator of the service started on ${sim.url}${simPort.moved ? ' (4010 is taken)' : ''}`);
	const examples = readExamples();
	progress(`Preparing n8n: the package, the credential, ${examples.length} example workflows (about 30 s)`);
	// n8n 2.x, whatever N8N_E2E_LINE says (try-it.sh installs that line only)
	const home = await createN8nHome({ line: 'v2' });
	const simCredential = credential(CREDENTIAL.id, sim.url, { name: CREDENTIAL.name });
	await home.importCredentials([simCredential]);
	// the examples as shipped leave the credential and the objects to the user: try-it's copies use
	// the simulator's, and read their files from this n8n's folder
	copyExampleFiles(home.folder);
	home.env.N8N_RESTRICT_FILE_ACCESS_TO = home.folder;
	const copies = examples.map(({ workflow }) =>
		tryItCopy(workflow, { folder: home.folder, credential: CREDENTIAL }),
	);
	// one CLI command for all of them: each command boots n8n (seconds)
	await home.importWorkflows(copies);
	const imported = copies.map((wf, n) => ({ name: wf.name, file: examples[n].file }));
	let { port, moved } = await choosePort(process.env.N8N_PORT, 5678);
	while (port === sim.port) ({ port, moved } = { port: await freePort(), moved: true });
	if (moved) progress(`Port 5678 is taken (another n8n?): this n8n listens on ${port} instead`);
	progress(`Starting n8n on port ${port} (about 20 s)`);
	const logFile = path.join(home.folder, 'n8n-start.log');
	// not detached: n8n stays in try-it's process group (a terminal's Ctrl-C reaches it too); its output through try-it
	const n8n = spawnN8n({
		runtime: home.runtime,
		args: ['start'],
		env: { ...home.env, ...tryItEnv({ port, owner: OWNER, runtime: home.runtime }) },
		cwd: home.folder,
		outputFile: logFile,
		detached: false,
		pipeOutput: true,
		stop: { signal: 'SIGTERM', graceMs: 30_000 },
	});
	let stopping = false;
	/** Stops n8n (waiting until it is gone, SIGKILL after 30 s), the simulator, and removes the n8n home. */
	const stop = async (code = 0) => {
		if (stopping) return;
		stopping = true;
		await n8n.stop();
		await sim.close();
		home.cleanup();
		process.exit(code);
	};
	process.on('SIGINT', () => stop(0));
	process.on('SIGTERM', () => stop(0));
	n8n.child.on('exit', (code) => {
		if (stopping) return;
		console.log(`n8n exited (${code}); its log was ${logFile}`);
		stopping = true;
		sim.close().then(() => process.exit(code ?? 1));
	});
	let ready = false;
	try {
		ready = Boolean(await waitUntil('n8n', () => isReady(`http://127.0.0.1:${port}`, { restMounted: true }), { child: n8n.child, timeoutMs: READY_MS, intervalMs: 1000, cancelled: () => stopping }));
	} catch {}
	if (stopping) return;
	if (!ready) {
		console.error(`n8n did not get ready within ${READY_MS / 1000} s; the end of its log:\n${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-3000) : '(empty)'}`);
		await stop(1);
	}
	const first = imported.find((w) => w.file === FIRST_EXAMPLE) || imported[0];
	console.log(`\nReady after ${Math.round(process.uptime())} s more.`);
	console.log(`Simulator: ${sim.url} (API key sim-test-key-0123456789)`);
	console.log(`n8n log:   ${logFile}`);
	console.log(`Workflows: ${imported.map((w) => w.name).join(', ') || '(none)'}; credential "${CREDENTIAL.name}"`);
	console.log('');
	console.log(`Where to click first:`);
	console.log(`  1. Open http://127.0.0.1:${port} and log in (below).`);
	if (first) console.log(`  2. Overview → open "${first.name}" → Execute workflow: it reads leads.csv and creates one lead per row in the simulator.`);
	console.log(`  3. Add a node ("+"), search "Voice Chat Assistant" or "Famulor": 81 actions and the trigger events; the credential "${CREDENTIAL.name}" is chosen for you.`);
	console.log('');
	console.log(`n8n:       http://127.0.0.1:${port}  login ${OWNER.email} / ${OWNER.password}`);
	console.log('Ctrl-C stops everything.');
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
