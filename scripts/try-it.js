/* Starts the simulator and a real n8n with the package and the examples (see try-it.sh). */
const fs = require('fs');
const path = require('path');
const { createN8nHome, freePort, tryItEnv, spawnN8n, waitUntil, isReady, credential } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');

const OWNER = { email: 'demo@example.com', password: 'Demo-Password-1', firstName: 'Demo', lastName: 'User' };

async function main() {
	const sim = await startSimulator({ port: Number(process.env.SIM_PORT || 4010) });
	const home = await createN8nHome();
	await home.importCredentials([credential('simulatorCred001', sim.url, { name: 'Voice Chat Assistant (simulator)' })]);
	const examples = path.join(__dirname, '../examples');
	fs.copyFileSync(path.join(examples, 'leads.csv'), path.join(home.folder, 'leads.csv'));
	home.env.N8N_RESTRICT_FILE_ACCESS_TO = home.folder;
	const imported = [];
	for (const file of fs.existsSync(examples) ? fs.readdirSync(examples).filter((f) => f.endsWith('.json')) : []) {
		const text = fs.readFileSync(path.join(examples, file), 'utf8').replaceAll('{{DEMO_DIR}}', home.folder);
		const wf = JSON.parse(text);
		await home.importWorkflow(wf);
		imported.push(wf.name);
	}
	const port = Number(process.env.N8N_PORT || (await freePort()));
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
		ready = Boolean(await waitUntil('n8n', () => isReady(`http://127.0.0.1:${port}`), { child: n8n.child, timeoutMs: 120_000, intervalMs: 1000, cancelled: () => stopping }));
	} catch {}
	if (stopping) return;
	if (!ready) {
		console.error(`n8n did not get ready within 120 s; the end of its log:\n${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-3000) : '(empty)'}`);
		await stop(1);
	}
	console.log(`\nSimulator: ${sim.url} (API key sim-test-key-0123456789)`);
	console.log(`n8n:       http://127.0.0.1:${port}  login ${OWNER.email} / ${OWNER.password}`);
	console.log(`Credential "Voice Chat Assistant (simulator)"; workflows: ${imported.join(', ') || '(none)'}`);
	console.log(`n8n log:   ${logFile}\nCtrl-C stops everything.`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
