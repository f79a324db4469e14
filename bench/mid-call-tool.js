/**
 * Mid-call tool requests answered by a workflow, in a real n8n server (the
 * line of N8N_E2E_LINE, v2 unless set) with the simulator on loopback. Active
 * workflows side by side in one n8n, each giving the same fixed JSON answer:
 *
 * - ours:    Voice Chat Assistant Trigger, event Mid-Call Tool Request
 *            (Response Mode: When Last Node Finishes) → a Set node; the tool is
 *            registered on the simulator at activation;
 * - webhook: n8n's Webhook node (Respond: Using 'Respond to Webhook' Node) →
 *            Respond to Webhook;
 * - webhookLastNode (for reference): n8n's Webhook node (Respond: When Last
 *            Node Finishes) → the same Set node as ours.
 *
 * Every request is sent as the service sends a tool's request (the simulator's
 * deliver(), as POST /__sim/calls/use-tool sends it: a fresh connection, JSON
 * arguments, the tool's headers with its secret); the plain Webhook gets the
 * same request and headers. 200 requests to each, 10 at a time, in batches of
 * 10 that take turns (each side first, in the middle and last in turn), after
 * a warm-up of 20 each, so that the machine's noise hits all alike. Latency:
 * from sending the request to the end of the answer, in this process.
 *
 * Prints the figures and a JSON summary; writes bench/results/mid-call-tool.txt.
 * With --rounds=N, each side's figures are those of its round with the median p99.
 * Run: node bench/mid-call-tool.js [--requests=200] [--concurrency=10] [--rounds=1] [--engine=legacy|vm] [--pool=N]
 * BENCH_CPU_PROF=<dir> writes CPU profiles of the n8n server (node --cpu-prof).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { performance } = require('perf_hooks');
const { createN8nHome, credential, waitUntil } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');
const { deliver } = require('../test/simulator/webhooks');

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)=?(.*)$/.exec(a).slice(1)));
const REQUESTS = Number(args.requests || 200);
const CONCURRENCY = Number(args.concurrency || 10);
const ROUNDS = Number(args.rounds || 1);
const WARM_UP = 2 * CONCURRENCY;
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

const ASSISTANT_ID = 1; // the simulator's inbound assistant, with tool 1
const TOOL = 'bench_check_slot';
const WEBHOOK_PATH = 'bench-check-slot';
const ANSWER = { free: true, answer: 'Tuesday at 10:00 is free.' };
const ANSWER_JSON = JSON.stringify(ANSWER);

function workflows() {
	const ours = {
		id: 'benchMidCallOurs',
		name: 'Bench: mid-call tool (Voice Chat Assistant Trigger)',
		nodes: [
			{
				id: 't',
				name: 'Tool Request',
				type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: '0b6f3c2a-7d1e-4c5b-9a8f-6e5d4c3b2a19',
				parameters: {
					event: 'midCallTool',
					assistantId: { __rl: true, mode: 'id', value: String(ASSISTANT_ID) },
					toolName: TOOL,
					toolDescription: 'Checks whether an appointment slot is free. Use it when the caller asks for a date.',
					toolParameters: { parameter: [{ name: 'date', type: 'string', description: 'The date, as YYYY-MM-DD' }] },
					toolTimeout: 10,
					responseMode: 'lastNode',
				},
				credentials: { voiceChatAssistantApi: { id: 'benchToolCred001', name: 'simulator' } },
			},
			{
				id: 's',
				name: 'Answer',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: { mode: 'raw', jsonOutput: ANSWER_JSON, includeOtherFields: false, options: {} },
			},
		],
		connections: { 'Tool Request': { main: [[{ node: 'Answer', type: 'main', index: 0 }]] } },
	};
	const webhook = {
		id: 'benchMidCallHook',
		name: 'Bench: mid-call tool (Webhook + Respond to Webhook)',
		nodes: [
			{
				id: 'w',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716',
				parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'responseNode', options: {} },
			},
			{
				id: 'r',
				name: 'Respond to Webhook',
				type: 'n8n-nodes-base.respondToWebhook',
				typeVersion: 1.1,
				position: [220, 0],
				parameters: { respondWith: 'json', responseBody: ANSWER_JSON, options: {} },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Respond to Webhook', type: 'main', index: 0 }]] } },
	};
	// for reference: n8n's Webhook answering when its last node (the same Set node) finishes
	const lastNode = {
		id: 'benchMidCallLast',
		name: 'Bench: mid-call tool (Webhook, When Last Node Finishes)',
		nodes: [
			{ ...webhook.nodes[0], webhookId: '7c6b5a49-3827-4e16-9d05-f4e3d2c1b0a9', parameters: { httpMethod: 'POST', path: `${WEBHOOK_PATH}-last-node`, responseMode: 'lastNode', options: {} } },
			{ ...ours.nodes[1] },
		],
		connections: { Webhook: { main: [[{ node: 'Answer', type: 'main', index: 0 }]] } },
	};
	return [ours, webhook, lastNode];
}

/** The value at quantile q of sorted values (nearest rank). */
const quantile = (sorted, q) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
const round2 = (n) => Math.round(n * 100) / 100;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

function stats(latencies) {
	const sorted = [...latencies].sort((a, b) => a - b);
	return { n: sorted.length, p50: round2(quantile(sorted, 0.5)), p99: round2(quantile(sorted, 0.99)), max: round2(sorted[sorted.length - 1]) };
}

async function main() {
	const sim = await startSimulator({ port: 0, rateLimit: false });
	const home = await createN8nHome();
	const version = JSON.parse(fs.readFileSync(path.join(home.runtime.N8N_RUNTIME_DIR, 'n8n/node_modules/n8n/package.json'), 'utf8')).version;
	// --engine=legacy|vm: n8n's expression engine (2.x default: vm, an isolate per acquisition); --pool=N: its pool size
	if (args.engine) home.env.N8N_EXPRESSION_ENGINE = args.engine;
	if (args.pool) home.env.N8N_EXPRESSION_ENGINE_POOL_SIZE = args.pool;
	if (PROFILE_DIR) home.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${path.resolve(PROFILE_DIR)}`;
	let server;
	try {
		await home.importCredentials([credential('benchToolCred001', sim.url, { name: 'simulator' })]);
		const ids = await home.importWorkflows(workflows());
		for (const id of ids) await home.activate(id);
		server = await home.start();

		// activation registered the tool (with its secret header) and added it to the assistant
		const tool = await waitUntil(
			'the tool on the simulator',
			() => {
				const t = sim.state.tools.find((x) => x.name === TOOL);
				const assistant = sim.state.assistants.find((a) => a.id === ASSISTANT_ID);
				return t && assistant.tool_ids.includes(t.id) && t;
			},
			{ timeoutMs: 60_000 },
		);
		const headers = {};
		for (const h of tool.headers) headers[h.name] = h.value;
		const timeoutMs = tool.timeout * 1000;
		const target = {
			ours: { url: tool.endpoint, headers },
			// the same request as the service sends (its headers included) to n8n's own Webhook
			webhook: { url: `${server.baseUrl}/webhook/${WEBHOOK_PATH}`, headers },
			webhookLastNode: { url: `${server.baseUrl}/webhook/${WEBHOOK_PATH}-last-node`, headers },
		};
		const sides = Object.keys(target);
		let sent = 0;
		const send = async (side) => {
			const body = { date: `2026-12-${String((sent++ % 28) + 1).padStart(2, '0')}` };
			const started = performance.now();
			const result = await deliver(target[side].url, body, { timeoutMs, headers: target[side].headers, method: tool.method });
			const ms = performance.now() - started;
			const ok = result.status === 200 && JSON.stringify(result.response) === ANSWER_JSON;
			return { ms, ok, status: result.status, error: result.error };
		};

		// both answer (n8n registers the webhooks a moment after readiness); the first of ours through the simulator's control endpoint
		await waitUntil(
			'the tool answering through the simulator',
			async () => {
				const res = await fetch(`${sim.url}/__sim/calls/use-tool`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ assistant_id: ASSISTANT_ID, tool: TOOL, arguments: { date: '2026-12-01' } }),
				});
				const used = await res.json();
				return used.status === 200 && JSON.stringify(used.response) === ANSWER_JSON;
			},
			{ timeoutMs: 60_000, intervalMs: 500 },
		);
		for (const side of sides.slice(1)) await waitUntil(`the Webhook (${side}) answering`, async () => (await send(side)).ok, { timeoutMs: 60_000, intervalMs: 500 });

		const batch = async (side, n) => Promise.all(Array.from({ length: n }, () => send(side)));
		for (let i = 0; i < WARM_UP / CONCURRENCY; i++) for (const side of sides) await batch(side, CONCURRENCY);

		const rounds = [];
		for (let r = 0; r < ROUNDS; r++) {
			const results = Object.fromEntries(sides.map((side) => [side, []]));
			const loadBefore = os.loadavg()[0];
			for (let b = 0; b < REQUESTS / CONCURRENCY; b++) {
				// each side goes first, in the middle and last in turn
				const order = sides.map((_, i) => sides[(i + b) % sides.length]);
				for (const side of order) results[side].push(...(await batch(side, CONCURRENCY)));
			}
			const summary = {};
			for (const side of sides) {
				const failed = results[side].filter((x) => !x.ok);
				summary[side] = { ...stats(results[side].map((x) => x.ms)), failed: failed.length };
				if (failed.length) summary[side].firstFailure = failed[0];
			}
			summary.ratioP50 = round2(summary.ours.p50 / summary.webhook.p50);
			summary.ratioP99 = round2(summary.ours.p99 / summary.webhook.p99);
			summary.load = [round2(loadBefore), round2(os.loadavg()[0])];
			console.error(`  round ${r + 1}: ${JSON.stringify(summary)}`);
			rounds.push(summary);
		}

		// n8n ran one execution per request of each side
		const executions = home.queryDb(`select workflowId, status, count(*) as n from execution_entity group by workflowId, status`);
		// with several rounds: per side, the round with the median p99
		const pick = (side) => [...rounds].sort((a, b) => a[side].p99 - b[side].p99)[Math.floor((rounds.length - 1) / 2)][side];
		const figures = Object.fromEntries(sides.map((side) => [side, pick(side)]));
		const result = {
			bench: 'mid-call-tool',
			n8n: version,
			expressionEngine: home.env.N8N_EXPRESSION_ENGINE || 'vm (default)',
			machine: { cores: os.cpus().length, node: process.version },
			requests: REQUESTS,
			concurrency: CONCURRENCY,
			rounds: rounds.length,
			...figures,
			ratioP50: round2(figures.ours.p50 / figures.webhook.p50),
			ratioP99: round2(figures.ours.p99 / figures.webhook.p99),
			ratioP99LastNode: round2(figures.ours.p99 / figures.webhookLastNode.p99),
			// the ratios of each round (both sides measured in the same minutes), and their median
			roundRatiosP99: rounds.map((x) => x.ratioP99),
			medianRoundRatioP99: median(rounds.map((x) => x.ratioP99)),
			...(rounds.length > 1 ? { all: rounds } : {}),
			executions,
			timeoutMs,
		};
		const line =
			`mid-call tool (n8n ${version}, expression engine ${result.expressionEngine}, ${result.machine.cores} cores, ${REQUESTS} requests each, ${CONCURRENCY} at a time${rounds.length > 1 ? `, median of ${rounds.length} rounds` : ''}): ` +
			`our trigger p50 ${figures.ours.p50} ms, p99 ${figures.ours.p99} ms; Webhook + Respond to Webhook p50 ${figures.webhook.p50} ms, p99 ${figures.webhook.p99} ms: p99 ratio ${result.ratioP99} (p50 ${result.ratioP50}${rounds.length > 1 ? `; per round ${result.roundRatiosP99.join(', ')}` : ''}); ` +
			`Webhook answering when the last node finishes p50 ${figures.webhookLastNode.p50} ms, p99 ${figures.webhookLastNode.p99} ms: p99 ratio ${result.ratioP99LastNode}; failed ${sides.map((side) => rounds.reduce((n, x) => n + x[side].failed, 0)).join('/')}`;
		console.log(line);
		console.log(JSON.stringify(result, null, 2));
		fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
		fs.writeFileSync(path.join(__dirname, 'results', 'mid-call-tool.txt'), `${line}\n${JSON.stringify(result)}\n`);
		if (rounds.some((x) => sides.some((side) => x[side].failed))) process.exitCode = 1;
	} finally {
		await sim.close();
		await home.cleanup();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
