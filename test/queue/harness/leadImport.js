/**
 * One lead import through the queue: `executions` concurrent webhook calls of
 * `perExecution` leads each, then the figures from the simulator's state and
 * log, n8n's execution records and the workers' logs.
 */
const fs = require('fs');

const { executionsOf, nodeOutput, waitFor, FINISHED } = require('./workflows');
const { floorMs } = require('../../harness/sharedAccount');

/**
 * The service's limits scaled 10x (1,000 per minute, bursts of 200 per 10 s),
 * so that 500 leads take about 20 s instead of minutes; both windows keep the
 * shape of the real ones (docs/api.md, section 5: 100 per minute, 20 per 10 s).
 */
const SIM_LIMITS = { perMinute: 1000, burst: 200, burstWindowMs: 10_000, windowMs: 60_000 };

function phoneOf(series, index) {
	// E.164: +49 151 <series digit><6 digits>
	return `+49151${series}${String(index).padStart(6, '0')}`;
}

/** Posts `leads` to the lead import workflow at the main's production webhook `path`; the response. */
async function postLeads(cluster, path, leads) {
	return await fetch(`${cluster.baseUrl}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ leads }),
	});
}

/** Waits until `count` executions of the workflow (those not in `before`) have finished; their rows. */
async function finishedExecutions(
	postgres,
	workflowId,
	count,
	{ before = new Set(), timeoutMs = 60_000, intervalMs = 300 } = {},
) {
	return await waitFor(
		`${count} finished executions of ${workflowId}`,
		async () => {
			const mine = (await executionsOf(postgres, workflowId)).filter(
				(r) => !before.has(String(r.id)),
			);
			return mine.length >= count && mine.every((r) => FINISHED.includes(r.status)) && mine;
		},
		timeoutMs,
		intervalMs,
	);
}

/**
 * @param ctx {sim, postgres, cluster, flatted}
 * @param options {label, workflowId, path, series, executions, perExecution, timeoutMs}
 */
async function runLeadImport(
	ctx,
	{ label, workflowId, path, series, executions = 10, perExecution = 50, timeoutMs = 240_000 },
) {
	const { sim, postgres, cluster, flatted } = ctx;
	// restart the service's windows so each run starts with a full budget
	sim.simulator.limiter.reset();
	const logStart = sim.log.length;
	const before = new Set((await executionsOf(postgres, workflowId)).map((r) => String(r.id)));
	const phones = [];
	const batches = [];
	for (let e = 0; e < executions; e++) {
		const leads = [];
		for (let i = 0; i < perExecution; i++) {
			const phone = phoneOf(series, e * perExecution + i);
			phones.push(phone);
			leads.push({ phone, name: `Lead ${series}-${e}-${i}` });
		}
		batches.push(leads);
	}
	const started = Date.now();
	const answers = await Promise.all(
		batches.map((leads) =>
			postLeads(cluster, path, leads).then(async (r) => ({
				status: r.status,
				body: await r.text(),
			})),
		),
	);
	const rows = await finishedExecutions(postgres, workflowId, executions, {
		before,
		timeoutMs,
		intervalMs: 1000,
	});
	const finished = Math.max(...rows.map((r) => new Date(r.stoppedAt).getTime()));
	const withData = (await executionsOf(postgres, workflowId, { withData: true, flatted })).filter(
		(r) => !before.has(String(r.id)),
	);

	const wanted = new Set(phones);
	const perPhone = new Map();
	for (const lead of sim.state.leads)
		if (wanted.has(lead.phone_number))
			perPhone.set(lead.phone_number, (perPhone.get(lead.phone_number) || 0) + 1);
	const requests = sim.log.slice(logStart).filter((e) => e.path === '/api/user/lead');
	const byWorker = cluster.executionsByWorker();
	const outputs = withData.map((r) => nodeOutput(r.run, 'Create Lead'));
	const outputPhones = outputs.flatMap((o) => o.items.map((j) => j.phone_number));

	const figures = {
		label,
		items: phones.length,
		executions: rows.length,
		created: perPhone.size,
		duplicates: [...perPhone.values()].filter((n) => n > 1).length,
		lost: phones.length - perPhone.size,
		requests: requests.length,
		'429s': requests.filter((e) => e.status === 429).length,
		// 429s more than 2 s after the first one: the collisions left once each worker has cut its share
		later429s: laterRefusals(requests, 2000),
		// how much later than the account's window opened the first 429 asked to wait (its
		// Retry-After is in whole seconds): a process that honours it sends nothing meanwhile
		askedBeyondOpeningSeconds: askedBeyondOpening(requests),
		otherErrors: requests.filter((e) => e.status !== 429 && e.status >= 400).length,
		// what else the account served meanwhile (other workflows, the triggers' reads), which takes
		// from the budget the workers share: path, second since the start, answer
		otherTraffic: sim.log
			.slice(logStart)
			.filter((e) => e.path !== '/api/user/lead' && Date.parse(e.time) <= finished)
			.map(
				(e) =>
					`${e.method} ${e.path} @${Math.floor((Date.parse(e.time) - started) / 1000)} s ${e.status}`,
			),
		outputItems: outputPhones.length,
		wallSeconds: Math.round((finished - started) / 100) / 10,
		// the earliest the last lead may be answered under the account's limits (20 ms per request)
		floorSeconds:
			Math.round(
				floorMs(
					phones.length,
					{
						perMinute: SIM_LIMITS.perMinute,
						burst: SIM_LIMITS.burst,
						burstWindowMs: SIM_LIMITS.burstWindowMs,
					},
					20,
				) / 100,
			) / 10,
		executionsPerWorker: {},
		// lead requests per second since the start: accepted / refused (429)
		timeline: timelineOf(requests, started),
	};
	// which worker sent each lead: its execution's worker
	const workerOfPhone = new Map();
	withData.forEach((r, i) => {
		const name = (byWorker[String(r.id)] || ['?']).join('+');
		figures.executionsPerWorker[name] = (figures.executionsPerWorker[name] || 0) + 1;
		for (const item of outputs[i].items) workerOfPhone.set(item.phone_number, name);
	});
	// the same per worker: how each one paced itself and took its share
	figures.timelineByWorker = {};
	for (const name of Object.keys(figures.executionsPerWorker).sort()) {
		const mine = requests.filter((e) => workerOfPhone.get(e.body?.phone_number) === name);
		figures.timelineByWorker[name] = timelineOf(mine, started);
	}
	if (process.env.QUEUE_DUMP_REQUESTS)
		fs.writeFileSync(
			`${process.env.QUEUE_DUMP_REQUESTS}-${series}.json`,
			JSON.stringify(
				requests.map((e) => [
					workerOfPhone.get(e.body?.phone_number),
					Date.parse(e.time) - started,
					e.status,
				]),
			),
		);
	return {
		figures,
		answers,
		rows: withData,
		outputs,
		outputPhones,
		phones,
		workersOf: Object.fromEntries(
			withData.map((r) => [String(r.id), byWorker[String(r.id)] || []]),
		),
	};
}

function askedBeyondOpening(requests) {
	const first = requests.find((e) => e.status === 429);
	if (!first) return 0;
	return Math.round(first.retryAfter * 1000 - first.windowOpensInMs) / 1000;
}

function laterRefusals(requests, afterMs) {
	const refused = requests.filter((e) => e.status === 429).map((e) => Date.parse(e.time));
	if (!refused.length) return 0;
	const first = Math.min(...refused);
	return refused.filter((t) => t > first + afterMs).length;
}

function timelineOf(requests, started) {
	const seconds = [];
	for (const e of requests) {
		const second = Math.max(0, Math.floor((Date.parse(e.time) - started) / 1000));
		seconds[second] ??= { accepted: 0, refused: 0 };
		seconds[second][e.status === 429 ? 'refused' : 'accepted']++;
	}
	return Array.from(seconds, (s) =>
		s ? `${s.accepted}${s.refused ? `/${s.refused}` : ''}` : '0',
	).join(' ');
}

function formatFigures(f) {
	const split = Object.entries(f.executionsPerWorker)
		.sort()
		.map(([name, n]) => `${name} ${n}`)
		.join(', ');
	const beyond = f.askedBeyondOpeningSeconds;
	const asked = beyond
		? ` (${(f.wallSeconds / (f.floorSeconds + beyond)).toFixed(2)} × the floor and the ${beyond.toFixed(1)} s the first 429 asked beyond it)`
		: '';
	return `${f.label.padEnd(36)} items ${f.items}  created ${f.created}  lost ${f.lost}  duplicates ${f.duplicates}  429s ${f['429s']} of ${f.requests} requests (${((100 * f['429s']) / f.requests).toFixed(1)} %)  wall ${f.wallSeconds.toFixed(1)} s = ${(f.wallSeconds / f.floorSeconds).toFixed(2)} × floor${asked}  (executions: ${split})`;
}

module.exports = {
	runLeadImport,
	postLeads,
	finishedExecutions,
	formatFigures,
	SIM_LIMITS,
	phoneOf,
};
