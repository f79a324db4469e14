/*
 * Verifies the README's one command to try the package (bash scripts/try-it.sh)
 * from the outside, as a user would meet it:
 *
 *   1. starts `bash scripts/try-it.sh` (build, pack, simulator, real n8n) and
 *      waits for it to print the n8n address and login;
 *   2. logs in as that owner through n8n's REST API (the editor's calls);
 *   3. asserts the node types, the credential type and the simulator credential
 *      are there (GET /types/nodes.json and /types/credentials.json, which the
 *      editor loads; POST /rest/node-types; GET /rest/credentials);
 *   4. asserts every workflow of examples/*.json is imported (try-it's copy,
 *      scripts/try-it-examples.js) and opens with only known node types and the
 *      simulator credential on every node of the package (GET /rest/workflows,
 *      GET /rest/workflows/:id);
 *   5. runs the lead-import example as the editor's "Execute workflow" does
 *      (POST /rest/workflows/:id/run, then GET /rest/executions/:id) and checks
 *      one lead per CSV row came out of the node and reached the simulator;
 *   6. sends SIGINT to try-it (Ctrl-C) and asserts every process it started
 *      is gone, its ports are closed and its n8n folder is removed.
 *
 * Exit 0 when all holds, 1 with the failed check otherwise. The first run on a
 * machine installs n8n (minutes). Knobs: VERIFY_READY_TIMEOUT_S (default 900),
 * VERIFY_LOG (the file try-it's output goes to, default .tmp/verify-try-it.log),
 * VERIFY_SIGINT=group (SIGINT to try-it's whole process group, as a terminal's
 * Ctrl-C does, instead of to try-it alone);
 * N8N_RUNTIME_CACHE is passed on (an empty folder there = a clean machine).
 */
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { readExamples } = require('./try-it-examples');
const { ROOT, PACKAGE, freePort, tcpOpen: isListening, cmdline, descendants, isAlive, envOf, restClient, runtimeModule } = require('../test/harness/n8n');

const NODE_TYPES = [`${PACKAGE}.voiceChatAssistant`, `${PACKAGE}.voiceChatAssistantTrigger`];
const CREDENTIAL_TYPE = 'voiceChatAssistantApi';
const CREDENTIAL_NAME = 'Voice Chat Assistant (simulator)';
const LEAD_IMPORT_FILE = 'lead-import-from-csv.json';
const DOCUMENT_FILE = 'document-upload-from-file.json';
const READY_TIMEOUT_MS = Number(process.env.VERIFY_READY_TIMEOUT_S || 900) * 1000;
const GROUP_SIGINT = process.env.VERIFY_SIGINT === 'group';
const LOG_FILE = path.resolve(ROOT, process.env.VERIFY_LOG || '.tmp/verify-try-it.log');

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const ok = (text) => console.log(`ok   ${text}`);
class CheckFailed extends Error {}
const assert = (condition, text) => {
	if (!condition) throw new CheckFailed(text);
};


/** Every process below `root` now, added to `seen` (key pid:startTime). */
function collectDescendants(root, seen) {
	const found = descendants(root);
	for (const child of found) {
		const key = `${child.pid}:${child.startTime}`;
		if (!seen.has(key)) seen.set(key, { pid: child.pid, startTime: child.startTime, cmd: cmdline(child.pid) });
	}
	return found;
}

const stillAlive = (proc) => isAlive(proc);

/** A command line with paths cut to their last two segments. */
function short(cmd) {
	return cmd
		.split(' ')
		.filter((arg) => !arg.startsWith('--'))
		.map((arg) => (arg.includes('/') ? `…/${arg.split('/').slice(-2).join('/')}` : arg))
		.join(' ');
}

/** Runs a workflow from its Manual Trigger as the editor's "Execute workflow" does; fails unless it succeeds. */
async function runExample(rest, workflow) {
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const run = await rest.post(`/rest/workflows/${workflow.id}/run`, { triggerToStartFrom: { name: trigger.name } });
	assert(run?.executionId, `POST /rest/workflows/${workflow.id}/run answered ${JSON.stringify(run)}`);
	let execution;
	for (const until = Date.now() + 120_000; ; ) {
		execution = await rest.get(`/rest/executions/${run.executionId}`);
		if (execution.finished || ['success', 'error', 'crashed', 'canceled'].includes(execution.status)) break;
		assert(Date.now() < until, `execution ${run.executionId} still ${execution.status} after 120 s`);
		await new Promise((r) => setTimeout(r, 500));
	}
	const { parse } = runtimeModule('flatted');
	const data = parse(execution.data);
	const runError = data.resultData?.error;
	assert(execution.status === 'success', `"${workflow.name}": execution ${run.executionId} ended ${execution.status}: ${runError?.message || ''} ${runError?.description || ''}`);
	return { executionId: run.executionId, data };
}

function csvRows(file) {
	const [header, ...lines] = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim());
	const keys = header.split(',');
	return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [keys[i], v])));
}

async function main() {
	const simPort = await freePort();
	let n8nPort = await freePort();
	while (n8nPort === simPort) n8nPort = await freePort();
	fs.mkdirSync(path.dirname(LOG_FILE), { recursive: true });
	const log = fs.openSync(LOG_FILE, 'w');
	console.log(`Starting: bash scripts/try-it.sh (SIM_PORT=${simPort} N8N_PORT=${n8nPort}); its output: ${path.relative(ROOT, LOG_FILE)}`);
	// own process group, so that a failed run can stop everything below it
	const tryIt = spawn('bash', ['scripts/try-it.sh'], {
		cwd: ROOT,
		env: { ...process.env, SIM_PORT: String(simPort), N8N_PORT: String(n8nPort) },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	let exit;
	const exited = new Promise((resolve) =>
		tryIt.once('exit', (code, signal) => {
			exit = { code, signal };
			resolve(exit);
		}),
	);
	for (const stream of [tryIt.stdout, tryIt.stderr]) {
		stream.on('data', (chunk) => {
			output += chunk;
			fs.writeSync(log, chunk);
		});
	}
	const seen = new Map();
	const watcher = setInterval(() => collectDescendants(tryIt.pid, seen), 250);
	const tail = () => output.split('\n').slice(-40).join('\n');

	const abort = async () => {
		clearInterval(watcher);
		if (!exit) {
			try {
				process.kill(-tryIt.pid, 'SIGINT');
			} catch {}
			const timer = setTimeout(() => {
				try {
					process.kill(-tryIt.pid, 'SIGKILL');
				} catch {}
			}, 40_000);
			await exited;
			clearTimeout(timer);
		}
		for (const proc of seen.values()) {
			if (stillAlive(proc)) {
				try {
					process.kill(proc.pid, 'SIGKILL');
				} catch {}
			}
		}
	};

	try {
		// 1. ready
		const deadline = Date.now() + READY_TIMEOUT_MS;
		let m;
		while (!(m = /^n8n:\s+(http:\/\/\S+)\s+login (\S+) \/ (\S+)$/m.exec(output))) {
			assert(!exit, `try-it exited (${exit?.code ?? exit?.signal}) before n8n was ready:\n${tail()}`);
			assert(Date.now() < deadline, `try-it did not print the n8n address within ${READY_TIMEOUT_MS / 1000} s:\n${tail()}`);
			await new Promise((r) => setTimeout(r, 250));
		}
		await new Promise((r) => setTimeout(r, 500)); // the lines printed with it
		const [, baseUrl, email, password] = m;
		const simUrl = /^Simulator: (http:\/\/\S+)/m.exec(output)?.[1];
		const n8nLog = /^n8n log:\s+(\S+)/m.exec(output)?.[1];
		assert(baseUrl === `http://127.0.0.1:${n8nPort}`, `n8n is at ${baseUrl}, not on N8N_PORT ${n8nPort}`);
		assert(simUrl === `http://127.0.0.1:${simPort}`, `the simulator is at ${simUrl}, not on SIM_PORT ${simPort}`);
		const n8nHome = n8nLog && path.dirname(n8nLog);
		assert(n8nHome && fs.existsSync(n8nHome), `try-it printed no existing n8n folder (n8n log: ${n8nLog})`);
		ok(`try-it ready after ${elapsed()}: n8n ${baseUrl}, simulator ${simUrl}, login ${email}`);
		const running = collectDescendants(tryIt.pid, seen);
		const n8nProc = running.find((p) => / start$/.test(cmdline(p.pid)) && cmdline(p.pid).includes('n8n'));
		assert(n8nProc, `no "n8n start" process below try-it: ${running.map((p) => cmdline(p.pid)).join(' | ')}`);
		const brokerPort = Number(envOf(n8nProc.pid).N8N_RUNNERS_BROKER_PORT) || undefined;
		console.log(`     processes below try-it (pid ${tryIt.pid}): ${running.map((p) => `${p.pid} ${short(cmdline(p.pid))}`).join('; ')}`);

		// 2. login
		// the editor's REST calls (the shared client, not logged in yet; routes as they are, /rest or not)
		const rest = await restClient(baseUrl, { login: false, prefix: '', browserId: `verify-try-it-${process.pid}`, makeError: (message) => new CheckFailed(message) });
		const me = await rest.post('/rest/login', { emailOrLdapLoginId: email, password });
		assert(me?.email === email, `login answered ${JSON.stringify(me).slice(0, 200)}`);
		ok(`POST /rest/login as ${email} (role ${me.role})`);

		// 3. node and credential types
		const nodeTypes = await rest.get('/types/nodes.json');
		assert(Array.isArray(nodeTypes), 'GET /types/nodes.json is not a list');
		const known = new Set(nodeTypes.flatMap((t) => [t.version].flat().map((v) => `${t.name}@${v}`)));
		const ours = nodeTypes.filter((t) => t.name.startsWith(`${PACKAGE}.`));
		for (const name of NODE_TYPES) assert(ours.some((t) => t.name === name), `node type ${name} missing from GET /types/nodes.json (ours: ${ours.map((t) => t.name).join(', ') || 'none'})`);
		ok(`GET /types/nodes.json (${nodeTypes.length} types) lists ${ours.map((t) => `${t.name} "${t.displayName}"`).join(', ')}`);
		const described = await rest.post('/rest/node-types', { nodeInfos: NODE_TYPES.map((name) => ({ name, version: 1 })) });
		assert(
			described.length === NODE_TYPES.length &&
				// the description as the package declares it: the name without the package prefix
				NODE_TYPES.every((name, i) => [name, name.slice(PACKAGE.length + 1)].includes(described[i]?.name) && described[i].properties?.length > 0),
			`POST /rest/node-types did not describe ${NODE_TYPES.join(', ')}: ${JSON.stringify(described).slice(0, 300)}`,
		);
		ok(`POST /rest/node-types describes both nodes (${described.map((d) => `${d.properties.length} properties`).join(', ')})`);
		const credentialTypes = await rest.get('/types/credentials.json');
		const credType = credentialTypes.find((c) => c.name === CREDENTIAL_TYPE);
		assert(credType, `credential type ${CREDENTIAL_TYPE} missing from GET /types/credentials.json`);
		ok(`GET /types/credentials.json lists ${CREDENTIAL_TYPE} "${credType.displayName}"`);
		const credentials = await rest.get('/rest/credentials');
		const cred = credentials.find((c) => c.name === CREDENTIAL_NAME);
		assert(cred && cred.type === CREDENTIAL_TYPE, `credential "${CREDENTIAL_NAME}" of type ${CREDENTIAL_TYPE} missing from GET /rest/credentials`);
		ok(`GET /rest/credentials has "${CREDENTIAL_NAME}" (${cred.type}, id ${cred.id})`);

		// 4. example workflows
		const examples = readExamples();
		const workflows = await rest.get('/rest/workflows');
		const imported = new Map();
		for (const { file, workflow } of examples) {
			const listed = workflows.find((w) => w.id === workflow.id);
			assert(listed && listed.name === workflow.name, `examples/${file} ("${workflow.name}", id ${workflow.id}) is not in GET /rest/workflows (${workflows.map((w) => w.name).join(', ')})`);
			const full = await rest.get(`/rest/workflows/${workflow.id}`);
			assert(full.nodes.length === workflow.nodes.length, `workflow ${workflow.id} has ${full.nodes.length} nodes, examples/${file} ${workflow.nodes.length}`);
			const unknown = full.nodes.filter((n) => !known.has(`${n.type}@${n.typeVersion}`)).map((n) => `${n.name} (${n.type}@${n.typeVersion})`);
			assert(!unknown.length, `workflow "${workflow.name}" uses node types n8n does not know: ${unknown.join(', ')}`);
			// try-it's copy: the simulator credential on every node of the package (the shipped file has none)
			const ourNodes = full.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`));
			const uncredentialed = ourNodes.filter((n) => n.credentials?.[CREDENTIAL_TYPE]?.id !== cred.id).map((n) => n.name);
			assert(!uncredentialed.length, `workflow "${workflow.name}": no credential "${CREDENTIAL_NAME}" on ${uncredentialed.join(', ')}`);
			ok(`examples/${file}: "${workflow.name}" imported, ${full.nodes.length} nodes, all types known, the credential on its ${ourNodes.length} Voice Chat Assistant nodes`);
			imported.set(file, full);
		}

		// 5. run the lead import
		const { workflow: leadImport } = examples.find((e) => e.file === LEAD_IMPORT_FILE) || {};
		assert(leadImport, `examples/${LEAD_IMPORT_FILE} missing`);
		// the campaign as try-it's copy picked it (the shipped file leaves it to the user)
		const leadNode = imported.get(LEAD_IMPORT_FILE).nodes.find((n) => n.type === `${PACKAGE}.voiceChatAssistant`);
		const rows = csvRows(path.join(ROOT, 'examples/leads.csv'));
		const campaignId = Number(leadNode.parameters.campaignId.value);
		assert(campaignId > 0, `try-it's copy of ${LEAD_IMPORT_FILE} picks no campaign: ${JSON.stringify(leadNode.parameters.campaignId)}`);
		const simLeads = async () => {
			const res = await fetch(`${simUrl}/__sim/state`);
			const state = await res.json();
			return state.leads.filter((l) => l.campaign_id === campaignId && rows.some((r) => r.phone === l.phone_number));
		};
		const leadsBefore = await simLeads();
		const { executionId, data } = await runExample(rest, leadImport);
		const task = data.resultData.runData[leadNode.name]?.[0];
		const items = task?.data?.main?.[0] ?? [];
		assert(!task?.error, `node "${leadNode.name}" failed: ${task?.error?.message}`);
		assert(items.length === rows.length, `node "${leadNode.name}" output ${items.length} items, leads.csv has ${rows.length} rows`);
		rows.forEach((row, i) => {
			const lead = items[i].json;
			assert(
				lead.phone_number === row.phone && lead.variables?.customer_name === row.customer_name && lead.variables?.email === row.email && lead.id !== undefined,
				`item ${i} of "${leadNode.name}" is not the lead of CSV row ${i} (${row.customer_name}, ${row.phone}, ${row.email}): ${JSON.stringify(lead).slice(0, 300)}`,
			);
		});
		ok(`POST /rest/workflows/${leadImport.id}/run -> execution ${executionId} status success; "${leadNode.name}" output ${items.length} leads, one per CSV row in order`);
		console.log(`     first item: ${JSON.stringify(items[0].json).slice(0, 300)}`);
		const leadsAfter = await simLeads();
		const created = leadsAfter.filter((l) => !leadsBefore.some((b) => b.id === l.id));
		const missing = rows.filter((r) => !leadsAfter.some((l) => l.phone_number === r.phone));
		assert(!missing.length, `the simulator has no lead for ${missing.map((r) => r.phone).join(', ')} in campaign ${campaignId}`);
		assert(created.length === rows.length, `the simulator got ${created.length} new leads, expected ${rows.length} (${leadsBefore.length} existed before the run)`);
		ok(`simulator (GET /__sim/state): campaign ${campaignId} has a lead for each CSV row (${created.length} created by this run: ${created.map((l) => `${l.id} ${l.phone_number}`).join(', ')})`);

		// 5b. run the document upload example: the document reaches the knowledgebase try-it's copy picked
		const docRun = await runExample(rest, imported.get(DOCUMENT_FILE));
		const uploadNode = imported.get(DOCUMENT_FILE).nodes.find((n) => n.type === `${PACKAGE}.voiceChatAssistant`);
		const uploaded = docRun.data.resultData.runData[uploadNode.name]?.[0]?.data?.main?.[0] ?? [];
		assert(uploaded.length === 1 && uploaded[0].json.name === uploadNode.parameters.name, `"${uploadNode.name}" output ${JSON.stringify(uploaded.map((i) => i.json)).slice(0, 300)}`);
		const kbId = Number(uploadNode.parameters.knowledgebaseId.value);
		const simState = await (await fetch(`${simUrl}/__sim/state`)).json();
		const stored = (simState.documents ?? []).find((d) => d.id === uploaded[0].json.id);
		assert(stored && Number(stored.knowledgebase_id) === kbId, `the simulator has no document ${uploaded[0].json.id} in knowledgebase ${kbId}`);
		ok(`examples/${DOCUMENT_FILE}: execution ${docRun.executionId} status success; document ${stored.id} "${stored.name}" in knowledgebase ${kbId}`);

		// 6. Ctrl-C
		clearInterval(watcher);
		collectDescendants(tryIt.pid, seen);
		const stopAt = Date.now();
		// Ctrl-C in a terminal signals the whole foreground process group; by default
		// only try-it gets it, so that try-it itself must stop what it started
		process.kill(GROUP_SIGINT ? -tryIt.pid : tryIt.pid, 'SIGINT');
		const stopped = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 60_000))]);
		assert(stopped, 'try-it did not exit within 60 s of SIGINT');
		assert(stopped.code === 0, `try-it exited with ${stopped.code ?? stopped.signal} on SIGINT`);
		ok(`SIGINT to ${GROUP_SIGINT ? 'its process group' : 'try-it'}: try-it exited 0 after ${((Date.now() - stopAt) / 1000).toFixed(1)} s`);
		await new Promise((r) => setTimeout(r, 500));
		const left = [...seen.values()].filter(stillAlive);
		assert(!left.length, `processes try-it started are still running:\n${left.map((p) => `  ${p.pid} ${p.cmd}`).join('\n')}`);
		ok(`none of the ${seen.size} processes started below try-it is left (n8n pid ${n8nProc.pid} included)`);
		const ports = { n8n: n8nPort, simulator: simPort, ...(brokerPort ? { 'task broker': brokerPort } : {}) };
		for (const [name, port] of Object.entries(ports)) assert(!(await isListening(port)), `${name} port ${port} still accepts connections`);
		ok(`ports closed: ${Object.entries(ports).map(([n, p]) => `${n} ${p}`).join(', ')}`);
		assert(!fs.existsSync(n8nHome), `the n8n folder ${n8nHome} was not removed`);
		ok(`n8n folder ${n8nHome} removed`);
		console.log(`\nverify-try-it: all checks passed in ${elapsed()}`);
		return 0;
	} catch (error) {
		console.error(`\nFAIL ${error instanceof CheckFailed ? error.message : error.stack || error}`);
		console.error(`(after ${elapsed()}; try-it's output: ${LOG_FILE})`);
		return 1;
	} finally {
		await abort();
		fs.closeSync(log);
	}
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
