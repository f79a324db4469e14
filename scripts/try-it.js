/* Starts the simulator and a real n8n with the package and the examples (see try-it.sh). */
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { createN8nHome, freePort, runtimeEnv } = require('../test/e2e/harness/n8n');
const { startSimulator } = require('../test/simulator/server');

const EMAIL = 'demo@example.com';
const PASSWORD = 'Demo-Password-1';

async function main() {
	const sim = await startSimulator({ port: Number(process.env.SIM_PORT || 4010) });
	const home = await createN8nHome();
	const runtime = runtimeEnv();
	const bcrypt = require(path.join(runtime.N8N_RUNTIME_DIR, 'n8n/node_modules/bcryptjs'));
	await home.importCredentials([
		{ id: 'simulatorCred001', name: 'Voice Chat Assistant (simulator)', type: 'voiceChatAssistantApi', data: { apiKey: 'sim-test-key-0123456789', baseUrl: sim.url } },
	]);
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
	const env = {
		...home.env,
		N8N_PORT: String(port),
		N8N_LOG_OUTPUT: 'console',
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: EMAIL,
		N8N_INSTANCE_OWNER_FIRST_NAME: 'Demo',
		N8N_INSTANCE_OWNER_LAST_NAME: 'User',
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(PASSWORD, 10),
	};
	const n8n = spawn(runtime.N8N_NODE_BIN, [runtime.N8N_BIN, 'start'], { env, cwd: home.folder, stdio: ['ignore', 'pipe', 'pipe'] });
	n8n.stdout.on('data', (d) => fs.appendFileSync(path.join(home.folder, 'n8n-start.log'), d));
	n8n.stderr.on('data', (d) => fs.appendFileSync(path.join(home.folder, 'n8n-start.log'), d));
	let stopping = false;
	const exited = new Promise((resolve) => n8n.once('exit', resolve));
	/** Stops n8n (waiting until it is gone, SIGKILL after 30 s), the simulator, and removes the n8n home. */
	const stop = async (code = 0) => {
		if (stopping) return;
		stopping = true;
		if (n8n.exitCode === null && n8n.signalCode === null) {
			n8n.kill('SIGTERM');
			const timer = setTimeout(() => n8n.kill('SIGKILL'), 30_000);
			await exited;
			clearTimeout(timer);
		}
		await sim.close();
		home.cleanup();
		process.exit(code);
	};
	process.on('SIGINT', () => stop(0));
	process.on('SIGTERM', () => stop(0));
	n8n.on('exit', (code) => {
		if (stopping) return;
		console.log(`n8n exited (${code}); its log was ${path.join(home.folder, 'n8n-start.log')}`);
		stopping = true;
		sim.close().then(() => process.exit(code ?? 1));
	});
	let ready = false;
	for (let i = 0; i < 120 && !ready && !stopping; i++) {
		try {
			const res = await fetch(`http://127.0.0.1:${port}/healthz/readiness`);
			ready = res.ok;
		} catch {}
		if (!ready) await new Promise((r) => setTimeout(r, 1000));
	}
	if (stopping) return;
	if (!ready) {
		const log = path.join(home.folder, 'n8n-start.log');
		console.error(`n8n did not get ready within 120 s; the end of its log:\n${fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-3000) : '(empty)'}`);
		await stop(1);
	}
	console.log(`\nSimulator: ${sim.url} (API key sim-test-key-0123456789)`);
	console.log(`n8n:       http://127.0.0.1:${port}  login ${EMAIL} / ${PASSWORD}`);
	console.log(`Credential "Voice Chat Assistant (simulator)"; workflows: ${imported.join(', ') || '(none)'}`);
	console.log(`n8n log:   ${path.join(home.folder, 'n8n-start.log')}\nCtrl-C stops everything.`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
