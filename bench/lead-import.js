/**
 * Lead import at the rate limit, in a real n8n against the simulator.
 * Cases, side by side: our node; the HTTP Request node with default settings;
 * the HTTP Request node with the batching a careful user would set.
 * Prints one line per case. Run: node bench/lead-import.js [items]
 *
 * Scale: the service allows 100 requests per minute in bursts of at most 20
 * per 10 s; the benchmark runs at 5 times that (500 per minute, bursts of 100)
 * with 20 ms of latency per request, so that 1,000 leads take about 100 s, not
 * 10 minutes. At that scale a burst takes about a third of its window to send
 * one request after the other, as at the real limits with a real network; the
 * two windows both bind, as they do for real imports.
 */
const fs = require('fs');
const path = require('path');
const { createN8nHome, outputOf, credential, connections, manualTriggerNode, createLeadNode, KEY } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');
const { floorSeconds } = require('./floor');

const N = Number(process.argv[2] || 1000);
const FAULTS = { method: 'POST', path: '/api/user/lead', rate: 0.1, kinds: ['refuse-503', 'refuse-500', 'lose-502', 'lose-reset'], seed: 7 };
const LIMITS = { perMinute: 500, burst: 100, burstWindowMs: 10_000, windowMs: 60_000 };
// a careful user spaces requests by the stricter of the two limits
const CAREFUL_INTERVAL_MS = Math.ceil(Math.max(LIMITS.windowMs / LIMITS.perMinute, LIMITS.burstWindowMs / LIMITS.burst));

async function main() {
	const sim = await startSimulator({ port: 0, rateLimit: LIMITS, latencyMs: 20 });
	const home = await createN8nHome();
	home.env.N8N_RESTRICT_FILE_ACCESS_TO = home.folder;
	await home.importCredentials([credential('benchCredential1', sim.url, { name: 'bench', requestsPerMinute: LIMITS.perMinute, burst: LIMITS.burst })]);
	const source = (prefix) => {
		const csv = path.join(home.folder, `${prefix}.csv`);
		const rows = ['name,phone'];
		for (let i = 0; i < N; i++) rows.push(`Lead ${i},+49${prefix === 'ours' ? 151 : prefix === 'http' ? 152 : 153}${String(i).padStart(8, '0')}`);
		fs.writeFileSync(csv, rows.join('\n'));
		return [
			manualTriggerNode(),
			{ id: 'r', name: 'Read CSV', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1, position: [200, 0], parameters: { operation: 'read', fileSelector: csv } },
			{ id: 'p', name: 'Parse CSV', type: 'n8n-nodes-base.extractFromFile', typeVersion: 1, position: [400, 0], parameters: { operation: 'csv', options: {} } },
		];
	};
	const httpNode = (batching) => ({
		id: 'h', name: 'Create Lead', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, position: [600, 0],
		parameters: {
			method: 'POST', url: `${sim.url}/api/user/lead`, sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${KEY}` }, { name: 'Accept', value: 'application/json' }] },
			sendBody: true, specifyBody: 'json', jsonBody: '={{ JSON.stringify({ phone_number: $json.phone, campaign_id: 1, variables: { customer_name: $json.name } }) }}',
			options: batching ? { batching: { batch: { batchSize: 1, batchInterval: CAREFUL_INTERVAL_MS } } } : {},
		},
	});
	const cases = [
		['our node', 'ours', createLeadNode({ id: 'l', position: [600, 0], credentialId: 'benchCredential1', credentialName: 'bench' })],
		// one lead request in ten fails: 503 or 500 before storing, 502 or a dropped connection after
		['our node, 10 % of requests failing', 'fault', createLeadNode({ id: 'l', position: [600, 0], credentialId: 'benchCredential1', credentialName: 'bench' }), FAULTS],
		['HTTP Request, defaults', 'http', httpNode(false)],
		[`HTTP Request, batch 1 every ${CAREFUL_INTERVAL_MS} ms`, 'batched', httpNode(true)],
	];
	const floor = floorSeconds(N, LIMITS);
	const lines = [];
	const faults = (body) => fetch(`${sim.url}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	for (const [label, prefix, node, fault] of cases) {
		sim.reset();
		await faults({ clear: true });
		if (fault) await faults(fault);
		sim.setConfig({ rateLimit: LIMITS });
		await new Promise((r) => setTimeout(r, LIMITS.windowMs / 6)); // let earlier windows drain a little
		sim.setConfig({ rateLimit: LIMITS }); // restart the windows
		const nodes = [...source(prefix), node];
		const id = await home.importWorkflow({ id: `bench${prefix.padEnd(11, '0')}`, name: label, nodes, connections: connections(nodes) });
		const leadsBefore = sim.state.leads.length;
		const logBefore = sim.log.length;
		const result = await home.execute(id);
		const rows = home.queryDb(`select startedAt, stoppedAt from execution_entity where workflowId = '${id}' order by id desc limit 1`);
		const wall = rows.length ? (Date.parse(rows[0].stoppedAt + 'Z') - Date.parse(rows[0].startedAt + 'Z')) / 1000 : NaN;
		const leadRequests = sim.log.slice(logBefore).filter((e) => e.path === '/api/user/lead');
		const perPhone = new Map();
		for (const lead of sim.state.leads.slice(leadsBefore)) perPhone.set(lead.phone_number, (perPhone.get(lead.phone_number) || 0) + 1);
		const created = perPhone.size;
		const duplicates = [...perPhone.values()].filter((n) => n > 1).length;
		const errors = result.ok ? outputOf(result.run, 'Create Lead').items.filter((i) => i.json.error).length : 'run failed';
		const line = `${label.padEnd(36)} sent ${N}  created ${created}  lost ${N - created}  duplicates ${duplicates}  429s ${leadRequests.filter((e) => e.status === 429).length}  user-visible errors ${errors}  wall ${wall.toFixed(1)} s  floor ${floor.toFixed(1)} s  ratio ${(wall / floor).toFixed(2)}`;
		console.log(line);
		lines.push(line);
	}
	fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
	fs.writeFileSync(path.join(__dirname, 'results', 'lead-import.txt'), lines.join('\n') + '\n');
	await sim.close();
	home.cleanup();
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
