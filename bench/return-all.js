/**
 * Call → Get Many with Return All over 10,000 simulated calls, in a real n8n:
 * the requests made (expected ceil(n / 100)) and the node's time against the
 * physical limit, requests × the simulator's latency per request.
 * The simulator's rate limit is off and the credential's budget is raised, so
 * the figure is the node's own cost (at the service's real limits, 100 pages
 * take about a minute of rate-limit waiting).
 * Run: node bench/return-all.js [calls] [latencyMs]
 */
const fs = require('fs');
const path = require('path');
const { createN8nHome, outputOf, credential, connections, manualTriggerNode, TYPE } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');

const CALLS = Number(process.argv[2] || 10_000);
const LATENCY_MS = Number(process.argv[3] || 50);

async function main() {
	const sim = await startSimulator({ port: 0, rateLimit: false, latencyMs: LATENCY_MS, seed: false });
	const seeded = await fetch(`${sim.url}/__sim/calls/seed`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ count: CALLS }),
	}).then((r) => r.json());
	const total = sim.state.calls.length;
	const home = await createN8nHome();
	try {
		await home.importCredentials([credential('benchCredential2', sim.url, { name: 'bench', requestsPerMinute: 100_000, burst: 100_000 })]);
		const nodes = [
			manualTriggerNode(),
			{
				id: 'c', name: 'Get Calls', type: TYPE, typeVersion: 1, position: [200, 0],
				credentials: { voiceChatAssistantApi: { id: 'benchCredential2', name: 'bench' } },
				parameters: { resource: 'call', operation: 'getMany', returnAll: true },
			},
		];
		const id = await home.importWorkflow({ id: 'benchReturnAll01', name: 'Return All', nodes, connections: connections(nodes) });
		const logBefore = sim.log.length;
		const result = await home.execute(id);
		if (!result.ok) throw new Error(`the run failed: ${result.raw.slice(-2000)}`);
		const task = (result.run.data ?? result.run).resultData.runData['Get Calls'][0];
		const items = outputOf(result.run, 'Get Calls').items.length;
		const pages = sim.log.slice(logBefore).filter((e) => e.path === '/api/user/calls');
		const requests = pages.length;
		const served = pages.reduce((sum, e) => sum + e.durationMs, 0);
		const expected = Math.ceil(total / 100);
		const limit = requests * LATENCY_MS;
		const line =
			`Call → Get Many, Return All: calls ${total} (seeded ${seeded.created})  items out ${items}  requests ${requests} (ceil(n/100) = ${expected})  ` +
			`node time ${(task.executionTime / 1000).toFixed(2)} s  requests × latency ${(limit / 1000).toFixed(2)} s  ratio ${(task.executionTime / limit).toFixed(2)}  ` +
			`(simulator's own time per page, latency included: ${(served / requests).toFixed(1)} ms; node time over the simulator's total ${(task.executionTime / served).toFixed(2)})`;
		console.log(line);
		fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
		fs.writeFileSync(path.join(__dirname, 'results', 'return-all.txt'), line + '\n');
		if (items !== total || requests !== expected) process.exitCode = 1;
	} finally {
		await sim.close();
		home.cleanup();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
