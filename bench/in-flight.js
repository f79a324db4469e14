/**
 * Keeping the pipe full: our node with default settings against the HTTP
 * Request node and against the rate-limit floor, in a real n8n against the
 * simulator (loopback only). Cases, each measured side by side in this run:
 *
 * - pipe:     no rate limit at the service, 50 ms latency, 1,000 leads; the
 *             credential allows 60,000 per minute in bursts of 10,000 (a plan
 *             that allows more than the standard): ours vs the HTTP Request node;
 * - pipe-phone: the same, both nodes mapping one column (the phone): the same
 *             expressions for n8n to evaluate on both sides (pipe maps two on
 *             ours, the phone and a variable, and one JSON body on theirs);
 * - pipe-input-fields: the pipe case, our node taking the lead's variables from
 *             the input item's fields (Variables From: Input Fields), so only
 *             the phone is an expression; the HTTP Request node as in pipe;
 * - standard: the standard limits (100 per minute, 20 per 10 s), 50 ms latency,
 *             200 leads: ours vs the floor (the earliest the last request may start);
 * - faults:   the standard limits × 5 (500 per minute, 100 per 10 s), 20 ms
 *             latency, 1,000 leads, one lead request in ten failing four ways
 *             (as in bench/lead-import.js): ours vs the floor;
 * - memory:   10,000 leads, no rate limit, 5 ms latency: the peak RSS of the
 *             n8n process (GNU time), ours vs the HTTP Request node.
 *
 * Run: node bench/in-flight.js [--cases=pipe,pipe-phone,pipe-input-fields,standard,faults,memory] [--rounds=2]
 * BENCH_CPU_PROF=<dir> writes a CPU profile of every n8n run (node --cpu-prof).
 */
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { createN8nHome, credential, connections, manualTriggerNode, createLeadNode, KEY } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');
const { floorSeconds } = require('./floor');

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const CASES = (args.cases || 'pipe,pipe-phone,pipe-input-fields,standard,faults,memory').split(',');
const ROUNDS = Number(args.rounds || 2);
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

const STANDARD = { perMinute: 100, burst: 20, burstWindowMs: 10_000, windowMs: 60_000 };
const FIVEFOLD = { perMinute: 500, burst: 100, burstWindowMs: 10_000, windowMs: 60_000 };
const FAULTS = { method: 'POST', path: '/api/user/lead', rate: 0.1, kinds: ['refuse-503', 'refuse-500', 'lose-502', 'lose-reset'], seed: 7 };

let phonePrefix = 100;

async function main() {
	const sim = await startSimulator({ port: 0, rateLimit: false, latencyMs: 50 });
	const home = await createN8nHome();
	home.env.N8N_RESTRICT_FILE_ACCESS_TO = home.folder;
	const runtime = home.runtime;
	await home.importCredentials([
		credential('benchStandard1', sim.url, { name: 'standard' }),
		credential('benchFivefold1', sim.url, { name: 'fivefold', requestsPerMinute: FIVEFOLD.perMinute, burst: FIVEFOLD.burst }),
		credential('benchLargePlan', sim.url, { name: 'large plan', requestsPerMinute: 60_000, burst: 10_000 }),
	]);
	const faults = (body) => fetch(`${sim.url}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

	/** Read CSV → Parse CSV → the node, n fresh phone numbers. */
	const workflow = (label, n, node) => {
		const prefix = phonePrefix++;
		const csv = path.join(home.folder, `leads-${prefix}.csv`);
		const rows = ['name,phone'];
		for (let i = 0; i < n; i++) rows.push(`Lead ${i},+49${prefix}${String(i).padStart(8, '0')}`);
		fs.writeFileSync(csv, rows.join('\n'));
		const nodes = [
			manualTriggerNode(),
			{ id: 'r', name: 'Read CSV', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [200, 0], parameters: { operation: 'read', fileSelector: csv } },
			{ id: 'p', name: 'Parse CSV', type: 'n8n-nodes-base.extractFromFile', typeVersion: 1, position: [400, 0], parameters: { operation: 'csv', options: {} } },
			node,
		];
		return home.importWorkflow({ id: `inflight${String(prefix).padStart(8, '0')}`, name: label, nodes, connections: connections(nodes) });
	};
	const ours = (credentialId) => createLeadNode({ id: 'l', position: [600, 0], credentialId, credentialName: credentialId });
	const oursPhoneOnly = (credentialId) => {
		const node = ours(credentialId);
		delete node.parameters.variables;
		return node;
	};
	const oursInputFields = (credentialId) => {
		const node = oursPhoneOnly(credentialId);
		// the CSV's other column (name) becomes the variable; the phone column is left out
		node.parameters.variablesFrom = 'inputFields';
		node.parameters.fieldsToLeaveOut = 'phone';
		return node;
	};
	const http = (jsonBody = '={{ JSON.stringify({ phone_number: $json.phone, campaign_id: 1, variables: { customer_name: $json.name } }) }}') => ({
		id: 'h', name: 'Create Lead', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, position: [600, 0],
		parameters: {
			method: 'POST', url: `${sim.url}/api/user/lead`, sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${KEY}` }, { name: 'Accept', value: 'application/json' }] },
			sendBody: true, specifyBody: 'json', jsonBody,
			options: {},
		},
	});

	/** One run: wall time of the execution (n8n's record), peak RSS of the n8n process, what the service saw. */
	const runOnce = async (label, n, node, { limits, latencyMs, fault }) => {
		sim.reset();
		await faults({ clear: true });
		if (fault) await faults(fault);
		sim.setConfig({ rateLimit: limits || false, latencyMs });
		const id = await workflow(label, n, node);
		const leadsBefore = sim.state.leads.length;
		const logBefore = sim.log.length;
		const nodeArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${label.replace(/\W+/g, '-')}-${Date.now()}.cpuprofile`] : [];
		const child = spawn('/usr/bin/time', ['-f', 'MAXRSS %M', runtime.N8N_NODE_BIN, ...nodeArgs, runtime.N8N_BIN, 'execute', `--id=${id}`], { env: home.env, cwd: home.folder, stdio: ['ignore', 'ignore', 'pipe'] });
		let stderr = '';
		child.stderr.on('data', (d) => (stderr += d));
		const status = await new Promise((resolve) => child.on('close', resolve));
		const rows = home.queryDb(`select startedAt, stoppedAt, status from execution_entity where workflowId = '${id}' order by id desc limit 1`);
		const wall = rows.length ? (Date.parse(rows[0].stoppedAt + 'Z') - Date.parse(rows[0].startedAt + 'Z')) / 1000 : NaN;
		const leadRequests = sim.log.slice(logBefore).filter((e) => e.path === '/api/user/lead');
		if (process.env.BENCH_TIMELINE) {
			// requests per 10 s of the run, by answer (BENCH_TIMELINE=1): where the time went
			const runRequests = sim.log.slice(logBefore).filter((e) => e.path.startsWith('/api/'));
			const t0 = Date.parse(runRequests[0]?.time);
			const buckets = new Map();
			for (const e of runRequests) {
				const bucket = Math.floor((Date.parse(e.time) - t0) / 10_000) * 10;
				const row = buckets.get(bucket) || {};
				const key = `${e.method} ${e.status}`;
				row[key] = (row[key] || 0) + 1;
				buckets.set(bucket, row);
			}
			for (const [bucket, row] of buckets) console.error(`    ${String(bucket).padStart(4)} s: ${JSON.stringify(row)}`);
			console.error(`    last request starts at ${((Date.parse(runRequests.at(-1)?.time) - t0) / 1000).toFixed(1)} s`);
		}
		const perPhone = new Map();
		for (const lead of sim.state.leads.slice(leadsBefore)) perPhone.set(lead.phone_number, (perPhone.get(lead.phone_number) || 0) + 1);
		const result = {
			label,
			status: status === 0 && rows[0]?.status === 'success' ? 'ok' : `exit ${status} ${rows[0]?.status ?? ''}`,
			wall,
			rssMb: Number((/MAXRSS (\d+)/.exec(stderr) || [])[1]) / 1024,
			created: perPhone.size,
			lost: n - perPhone.size,
			duplicates: [...perPhone.values()].filter((c) => c > 1).length,
			requests: leadRequests.length,
			r429: leadRequests.filter((e) => e.status === 429).length,
		};
		console.error(`  ${label}: ${JSON.stringify(result)}`);
		return result;
	};
	const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

	const lines = [];
	const say = (line) => {
		console.log(line);
		lines.push(line);
	};
	const pipe = async (name, what, oursNode, httpNode) => {
		const settings = { latencyMs: 50 };
		const a = [];
		const b = [];
		for (let round = 0; round < ROUNDS; round++) {
			a.push(await runOnce(`${name}: our node, defaults`, 1000, oursNode, settings));
			b.push(await runOnce(`${name}: HTTP Request, defaults`, 1000, httpNode, settings));
		}
		const ow = median(a.map((r) => r.wall));
		const hw = median(b.map((r) => r.wall));
		say(`${name} (no rate limit, 50 ms, 1,000 leads, ${what}): our node ${ow.toFixed(2)} s, HTTP Request ${hw.toFixed(2)} s: ratio ${(ow / hw).toFixed(2)} (median of ${ROUNDS}; created ${a.map((r) => r.created).join('/')}, duplicates ${a.map((r) => r.duplicates).join('/')})`);
	};
	if (CASES.includes('pipe')) await pipe('pipe', 'phone and name mapped', ours('benchLargePlan'), http());
	if (CASES.includes('pipe-phone')) {
		await pipe('pipe-phone', 'the phone mapped', oursPhoneOnly('benchLargePlan'), http('={{ JSON.stringify({ phone_number: $json.phone, campaign_id: 1 }) }}'));
	}
	if (CASES.includes('pipe-input-fields')) {
		await pipe('pipe-input-fields', 'phone mapped, name by Variables From: Input Fields on ours', oursInputFields('benchLargePlan'), http());
	}
	if (CASES.includes('standard')) {
		await new Promise((r) => setTimeout(r, 1000));
		const r = await runOnce('standard: our node, defaults', 200, ours('benchStandard1'), { limits: STANDARD, latencyMs: 50 });
		const floor = floorSeconds(200, STANDARD);
		say(`standard (100/min, 20/10 s, 50 ms, 200 leads): our node ${r.wall.toFixed(1)} s, floor ${floor.toFixed(1)} s: ratio ${(r.wall / floor).toFixed(3)}; 429s ${r.r429}, created ${r.created}, duplicates ${r.duplicates}`);
	}
	if (CASES.includes('faults')) {
		const r = await runOnce('faults: our node, defaults', 1000, ours('benchFivefold1'), { limits: FIVEFOLD, latencyMs: 20, fault: FAULTS });
		const floor = floorSeconds(1000, FIVEFOLD);
		say(`faults (500/min, 100/10 s, 20 ms, 1,000 leads, 10 % failing): our node ${r.wall.toFixed(1)} s, floor ${floor.toFixed(1)} s: ratio ${(r.wall / floor).toFixed(3)}; requests ${r.requests}, 429s ${r.r429}, lost ${r.lost}, duplicates ${r.duplicates}, run ${r.status}`);
		await faults({ clear: true });
	}
	if (CASES.includes('memory')) {
		const settings = { latencyMs: 5 };
		const a = await runOnce('memory: our node, defaults', 10_000, ours('benchLargePlan'), settings);
		const b = await runOnce('memory: HTTP Request, defaults', 10_000, http(), settings);
		say(`memory (10,000 leads, no rate limit, 5 ms): peak RSS our node ${a.rssMb.toFixed(0)} MB (${a.wall.toFixed(1)} s), HTTP Request ${b.rssMb.toFixed(0)} MB (${b.wall.toFixed(1)} s): ratio ${(a.rssMb / b.rssMb).toFixed(2)}; created ${a.created}/${b.created}`);
	}
	fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
	fs.writeFileSync(path.join(__dirname, 'results', 'in-flight.txt'), lines.join('\n') + '\n');
	await sim.close();
	await home.cleanup();
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
