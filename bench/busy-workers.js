/**
 * Busy n8n processes sharing one account, in real time: each process (a
 * forked child) runs the node's transport from dist/ (sendRequest, its rate
 * limiter, the in-flight slots of "Requests in Flight") for its executions
 * over real HTTP to the simulator, and spends CPU on every item the way a
 * worker running several executions does (`--busy=N`: up to N ms before and
 * after each request, at random), so its timers fire late. The virtual-time
 * model (bench/shared-budget.js) draws late timers at random; here they
 * come from the load.
 *
 * Prints per run: requests and 429s, the time from the first request to the
 * last answer against the floor of the account's limits, and per process the
 * most requests it started within one burst window. With the budget divided
 * by hand, more than a process's part is a defect of the limiter: the service
 * refuses it once the others fill the account.
 *
 * Run: npm run build && node bench/busy-workers.js [--processes=2] [--busy=8]
 *   [--items=500] [--executions=5] [--divided] [--runs=3]
 * (limits of the queue layer: 1,000 per minute, 200 per 10 s, 20 ms per request;
 * `--divided` gives each process its part of the budget, as a user dividing it by hand)
 */
const { fork } = require('child_process');
const http = require('http');

const LIMITS = { perMinute: 1000, burst: 200, burstWindowMs: 10_000, windowMs: 60_000 };
const LATENCY_MS = 20;

const args = Object.fromEntries(
	process.argv.slice(2).map((a) => {
		const [k, v] = a.replace(/^--/, '').split('=');
		return [k, v === undefined ? true : v];
	}),
);

async function child() {
	const dist = '../dist/nodes/VoiceChatAssistant/transport/';
	const { sendRequest } = require(dist + 'request');
	const { InFlightSlots, mapInOrder } = require(dist + 'concurrency');
	const { inFlightFor } = require(dist + 'inFlight');
	const { getLimiter } = require(dist + 'rateLimiter');
	const o = JSON.parse(process.argv[3]);
	const agent = new http.Agent({ keepAlive: true });
	const sent = [];
	const httpRequest = (request) =>
		new Promise((resolve, reject) => {
			const started = Date.now();
			const req = http.request(
				new URL(request.url, request.baseURL),
				{ method: request.method, agent, headers: request.headers },
				(res) => {
					res.resume();
					res.on('end', () => {
						sent.push({ at: started, end: Date.now(), status: res.statusCode });
						resolve({ statusCode: res.statusCode, body: '{}', headers: res.headers });
					});
				},
			);
			req.on('error', reject);
			req.end();
		});
	const budget = { perMinute: o.perMinute, burst: o.burst };
	const ctx = {
		getNode: () => ({ name: 'Get Me', credentials: { voiceChatAssistantApi: { id: o.name } } }),
		getCredentials: async () => ({ apiKey: o.apiKey, baseUrl: o.url, requestsPerMinute: budget.perMinute, burst: budget.burst }),
		helpers: { httpRequest },
	};
	const busy = () => {
		const until = Date.now() + Math.random() * o.busy;
		while (Date.now() < until);
	};
	const limiter = getLimiter(`${o.name}@${o.url}`, budget);
	const perExecution = Math.ceil(o.items / o.executions);
	await Promise.all(
		Array.from({ length: o.executions }, async () => {
			const slots = new InFlightSlots(() => inFlightFor(limiter));
			const items = Array.from({ length: perExecution }, (_, i) => i);
			await mapInOrder(items, slots, async (itemIndex) => {
				busy();
				const result = await sendRequest(ctx, 'GET', '/api/user/me', { itemIndex, slots });
				busy();
				if (result.error) throw result.error;
			});
		}),
	);
	process.send(sent);
	process.exit(0);
}

/** The most of `times` (sorted) within any `span` ms. */
function mostWithin(times, span) {
	let most = 0;
	for (let i = 0, j = 0; i < times.length; i++) {
		while (times[i] - times[j] >= span) j++;
		most = Math.max(most, i - j + 1);
	}
	return most;
}

async function main() {
	const { startSimulator } = require('../test/simulator/server');
	const { floorMs } = require('../test/harness/sharedAccount');
	const processes = Number(args.processes ?? 2);
	const items = Number(args.items ?? 500);
	const executions = Number(args.executions ?? 5);
	const busy = Number(args.busy ?? 8);
	const share = args.divided ? processes : 1;
	const budget = { perMinute: LIMITS.perMinute / share, burst: LIMITS.burst / share };
	for (let run = 1; run <= Number(args.runs ?? 3); run++) {
		const sim = await startSimulator({ rateLimit: LIMITS, latencyMs: LATENCY_MS, seed: false });
		const results = await Promise.all(
			Array.from({ length: processes }, (_, p) => {
				const o = { ...budget, name: `worker-${p + 1}`, url: sim.url, apiKey: 'sim-test-key-0123456789', items: items / processes, executions, busy };
				const c = fork(__filename, ['child', JSON.stringify(o)]);
				return new Promise((resolve, reject) => {
					c.on('message', resolve);
					c.on('exit', (code) => code && reject(new Error(`worker-${p + 1} exited with ${code}`)));
				});
			}),
		);
		await sim.close();
		const all = results.flat();
		// from the first request to the last answer (the processes' start is not the limiter's)
		const wall = Math.max(...all.map((r) => r.end)) - Math.min(...all.map((r) => r.at));
		const refused = all.filter((r) => r.status === 429).length;
		const per = results.map((sent, p) => {
			const accepted = sent.filter((r) => r.status !== 429).map((r) => r.at).sort((a, b) => a - b);
			return `worker-${p + 1} ${sent.length - accepted.length} 429s, at most ${mostWithin(accepted, LIMITS.burstWindowMs)} of its ${budget.burst} in a window`;
		});
		const floor = floorMs(items, LIMITS, LATENCY_MS);
		console.log(
			`run ${run}: ${processes} processes, busy ${busy} ms, ${args.divided ? 'divided' : 'each the whole budget'}: ${all.length} requests, ${refused} 429s (${((100 * refused) / all.length).toFixed(1)} %), ${(wall / 1000).toFixed(1)} s = ${(wall / floor).toFixed(2)} × the floor; ${per.join('; ')}`,
		);
	}
}

if (process.argv[2] === 'child') void child();
else main().catch((error) => {
	console.error(error);
	process.exit(1);
});
