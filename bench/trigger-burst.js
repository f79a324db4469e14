/**
 * A burst of post-call deliveries through the Voice Chat Assistant Trigger
 * against the same burst through n8n's own Webhook node, in one real n8n
 * server (the line of N8N_E2E_LINE, v2 unless set) with the simulator on
 * loopback. Two active workflows side by side, both answering at once
 * (Response Mode: Immediately) and ending in a No Operation node:
 *
 * - ours:    Voice Chat Assistant Trigger, event Call Ended (post-call
 *            webhook of assistant 2), registered on the simulator at activation;
 * - webhook: n8n's Webhook node at its own path;
 * - webhookAuth: n8n's Webhook node with Header Auth, as a user secures a
 *   webhook the service calls (its credential is read per request).
 *
 * Each round posts N deliveries (a post-call payload as the service sends it,
 * each with its own call id) to one side, C at a time, and takes the time from
 * the first post until n8n has saved an execution for every one of them
 * (counted in n8n's database). A warm-up burst per side comes first, not
 * counted (n8n's code compiled, its caches filled). The sides take turns, each first in turn, so
 * that the machine's noise hits both alike; the ratio is ours / webhook per
 * pair of rounds, and the median of those.
 *
 * Prints the figures and a JSON summary; writes bench/results/trigger-burst.txt.
 * Run: node bench/trigger-burst.js [--deliveries=500] [--concurrency=20] [--rounds=3] [--warmup=200] [--sides=ours,webhook,webhookAuth] [--engine=legacy|vm] [--no-isolate-skip]
 * --engine: n8n's expression engine (2.x default: vm); --no-isolate-skip: n8n takes an expression
 * isolate in the webhook phase of its own Webhook node too (N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP=false),
 * as it does for every other trigger node (docs/performance.md, Mid-call tools).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { performance } = require('perf_hooks');
const { createN8nHome, credential, waitUntil } = require('../test/harness/n8n');
const { startSimulator } = require('../test/simulator/server');
const { deliver } = require('../test/simulator/webhooks');

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)=?(.*)$/.exec(a).slice(1)));
const DELIVERIES = Number(args.deliveries || 500);
const CONCURRENCY = Number(args.concurrency || 20);
const ROUNDS = Number(args.rounds || 3);
// deliveries per side before the first round, not counted: n8n's code is compiled (JIT) and its caches
// are filled by then, so the side that goes first in round 1 does not pay for the warm-up of both
const WARMUP = Number(args.warmup ?? 200);
// the sides to run (all three unless --sides=ours,webhook,...): one side alone, e.g. for a CPU profile
const SIDES = (args.sides || 'ours,webhook,webhookAuth').split(',');
// BENCH_CPU_PROF=<dir>: a CPU profile of the n8n server (node --cpu-prof), written when it stops
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

const ASSISTANT_ID = 2;
const WEBHOOK_PATH = 'bench-call-ended';
const OURS = 'benchBurstOurs01';
const WEBHOOK = 'benchBurstHook01';
const WEBHOOK_AUTH = 'benchBurstAuth01';
const HEADER = { name: 'X-Bench-Secret', value: 'b3nch-s3cret-0123456789' };

function workflows() {
	const noOp = { id: 'n', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} };
	const ours = {
		id: OURS,
		name: 'Bench: call ended (Voice Chat Assistant Trigger)',
		nodes: [
			{
				id: 't',
				name: 'Call Ended',
				type: 'n8n-nodes-voice-chat-assistant.voiceChatAssistantTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: '3a9d2f4e-8c1b-4e6a-b5d7-0f1e2d3c4b5a',
				parameters: {
					event: 'callCompleted',
					assistantId: { __rl: true, mode: 'id', value: String(ASSISTANT_ID) },
				},
				credentials: { voiceChatAssistantApi: { id: 'benchBurstCred01', name: 'simulator' } },
			},
			noOp,
		],
		connections: { 'Call Ended': { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
	};
	const webhook = {
		id: WEBHOOK,
		name: 'Bench: call ended (Webhook)',
		nodes: [
			{
				id: 'w',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '6b5a4938-2716-4e05-9d8c-7b6a59483726',
				parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
			},
			noOp,
		],
		connections: { Webhook: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
	};
	// n8n's Webhook node as a user secures it: Header Auth, a credential n8n checks per request
	const webhookAuth = {
		id: WEBHOOK_AUTH,
		name: 'Bench: call ended (Webhook with Header Auth)',
		nodes: [
			{
				...webhook.nodes[0],
				webhookId: '8d7c6b5a-4938-4e27-9a16-05f4e3d2c1b0',
				parameters: { httpMethod: 'POST', path: `${WEBHOOK_PATH}-auth`, authentication: 'headerAuth', responseMode: 'onReceived', options: {} },
				credentials: { httpHeaderAuth: { id: 'benchBurstAuth01', name: 'header' } },
			},
			noOp,
		],
		connections: webhook.connections,
	};
	return [ours, webhook, webhookAuth];
}

const round2 = (n) => Math.round(n * 100) / 100;

/** CPU seconds (user + system) used so far by the processes of group `pgid` (n8n and its task runners); 0 where /proc is missing. */
function groupCpuSeconds(pgid) {
	let ticks = 0;
	for (const entry of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			// fields from the state on: pgrp is the 3rd, utime the 12th, stime the 13th
			if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// gone meanwhile
		}
	}
	return ticks / 100;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

let nextCallId = 900_000;
function payload() {
	const id = nextCallId++;
	const finished = new Date();
	const created = new Date(finished.getTime() - 95_000);
	return {
		id,
		customer_phone: '+4915112345678',
		assistant_phone: '+4930123456',
		duration: 95,
		status: 'completed',
		extracted_variables: { appointment: false },
		input_variables: {},
		transcript: 'bot: Hello\nhuman: Hi',
		created_at: created.toISOString().replace(/\.\d{3}Z$/, 'Z'),
		finished_at: finished.toISOString().replace(/\.\d{3}Z$/, 'Z'),
		lead: null,
		campaign: null,
	};
}

async function main() {
	const sim = await startSimulator({ port: 0, rateLimit: false });
	const home = await createN8nHome();
	const version = JSON.parse(fs.readFileSync(path.join(home.runtime.N8N_RUNTIME_DIR, 'n8n/node_modules/n8n/package.json'), 'utf8')).version;
	if (args.engine) home.env.N8N_EXPRESSION_ENGINE = args.engine;
	if (PROFILE_DIR) home.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${path.resolve(PROFILE_DIR)}`;
	if ('no-isolate-skip' in args) home.env.N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP = 'false';
	let server;
	try {
		await home.importCredentials([
			credential('benchBurstCred01', sim.url, { name: 'simulator' }),
			{ id: 'benchBurstAuth01', name: 'header', type: 'httpHeaderAuth', data: HEADER },
		]);
		const ids = await home.importWorkflows(workflows());
		await home.activate(...ids);
		server = await home.start();
		const assistant = () => sim.state.assistants.find((a) => a.id === ASSISTANT_ID);
		const oursUrl = await waitUntil('the post-call webhook on the simulator', () => assistant().is_webhook_active && assistant().webhook_url, { timeoutMs: 60_000 });
		const url = { ours: oursUrl, webhook: `${server.baseUrl}/webhook/${WEBHOOK_PATH}`, webhookAuth: `${server.baseUrl}/webhook/${WEBHOOK_PATH}-auth` };
		const headers = { webhookAuth: { [HEADER.name]: HEADER.value } };
		const count = (workflowId) => home.queryDb(`select count(*) as n from execution_entity where workflowId = '${workflowId}' and status = 'success'`)[0].n;
		const workflowOf = { ours: OURS, webhook: WEBHOOK, webhookAuth: WEBHOOK_AUTH };
		for (const side of SIDES) {
			await waitUntil(`${side} answering`, async () => (await deliver(url[side], payload(), { headers: headers[side] })).status === 200, { timeoutMs: 60_000, intervalMs: 500 });
		}

		const burst = async (side, deliveries = DELIVERIES) => {
			const before = count(workflowOf[side]);
			const queue = Array.from({ length: deliveries }, payload);
			let refused = 0;
			const cpuBefore = groupCpuSeconds(server.pid);
			// the monotonic clock in µs, the one of n8n's CPU profile (BENCH_CPU_PROF): which samples are this burst's
			const fromUs = Number(process.hrtime.bigint() / 1000n);
			const started = performance.now();
			await Promise.all(
				Array.from({ length: CONCURRENCY }, async () => {
					for (let p = queue.shift(); p; p = queue.shift()) {
						const result = await deliver(url[side], p, { timeoutMs: 60_000, headers: headers[side] });
						if (result.status !== 200) refused++;
					}
				}),
			);
			const answeredMs = performance.now() - started;
			await waitUntil(`${side}: ${deliveries} executions`, () => count(workflowOf[side]) - before >= deliveries - refused, { timeoutMs: 600_000, intervalMs: 100 });
			// how long n8n took per execution (started to stopped), the newest DELIVERIES of the side
			const [{ avg }] = home.queryDb(
				`select avg((julianday(stoppedAt) - julianday(startedAt)) * 86400000) as avg from (select startedAt, stoppedAt from execution_entity where workflowId = '${workflowOf[side]}' order by id desc limit ${deliveries})`,
			);
			const ms = round2(performance.now() - started);
			const profileWindowUs = [fromUs, Number(process.hrtime.bigint() / 1000n)];
			return { ms, ...(PROFILE_DIR ? { profileWindowUs } : {}), cpuSeconds: round2(groupCpuSeconds(server.pid) - cpuBefore), answeredMs: round2(answeredMs), executionMs: round2(avg), refused };
		};

		if (WARMUP > 0) for (const side of SIDES) await burst(side, WARMUP);
		const rounds = [];
		for (let r = 0; r < ROUNDS; r++) {
			const order = SIDES.map((_, i) => SIDES[(i + r) % SIDES.length]);
			const result = { load: round2(os.loadavg()[0]) };
			for (const side of order) result[side] = await burst(side);
			if (result.ours && result.webhook) {
				result.ratio = round2(result.ours.ms / result.webhook.ms);
				result.cpuRatio = round2(result.ours.cpuSeconds / result.webhook.cpuSeconds);
			}
			if (result.ours && result.webhookAuth) result.ratioAuth = round2(result.ours.ms / result.webhookAuth.ms);
			console.error(`  round ${r + 1}: ${JSON.stringify(result)}`);
			rounds.push(result);
		}
		const ratio = median(rounds.map((x) => x.ratio));
		const ratioAuth = median(rounds.map((x) => x.ratioAuth));
		const cpuRatio = median(rounds.map((x) => x.cpuRatio));
		const summary = {
			bench: 'trigger-burst',
			n8n: version,
			machine: { cores: os.cpus().length, node: process.version },
			expressionEngine: home.env.N8N_EXPRESSION_ENGINE || 'vm (default)',
			webhookIsolateSkip: home.env.N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP !== 'false',
			deliveries: DELIVERIES,
			concurrency: CONCURRENCY,
			rounds,
			medianRatio: ratio,
			medianRatioAuth: ratioAuth,
			medianCpuRatio: cpuRatio,
		};
		const line =
			`trigger burst (n8n ${version}, expression engine ${summary.expressionEngine}${summary.webhookIsolateSkip ? '' : ', no webhook isolate skip'}, ${summary.machine.cores} cores, ${DELIVERIES} deliveries, ${CONCURRENCY} at a time, ${ROUNDS} rounds): ` +
			`our trigger ${rounds.map((x) => x.ours?.ms).join(' / ')} ms, n8n's Webhook node ${rounds.map((x) => x.webhook?.ms).join(' / ')} ms until every execution is saved; ` +
			`ratio per round ${rounds.map((x) => x.ratio).join(', ')}, median ${ratio}; with Header Auth ${rounds.map((x) => x.webhookAuth?.ms).join(' / ')} ms, ratio median ${ratioAuth}; n8n's CPU time ours / Webhook node ${rounds.map((x) => x.cpuRatio).join(', ')}, median ${cpuRatio}; refused ${['ours', 'webhook', 'webhookAuth'].map((side) => rounds.reduce((n, x) => n + (x[side]?.refused ?? 0), 0)).join('/')}`;
		console.log(line);
		console.log(JSON.stringify(summary, null, 2));
		fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
		fs.writeFileSync(path.join(__dirname, 'results', 'trigger-burst.txt'), `${line}\n${JSON.stringify(summary)}\n`);
		if (rounds.some((x) => SIDES.some((side) => x[side].refused))) process.exitCode = 1;
	} finally {
		await server?.stop();
		await sim.close();
		await home.cleanup();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
