/**
 * A lead import whose worker is killed (SIGKILL to its process group) while it
 * runs, then the same import sent again with the node's defaults: what n8n
 * does with the killed execution (how long until it is marked Error, whether
 * it is run again) and what the second run stores.
 */
const { executionsOf, nodeOutput, waitFor, FINISHED } = require('./workflows');
const { phoneOf } = require('./leadImport');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isLeadRequest = (e) => e.path === '/api/user/lead' || e.path === '/api/user/leads';

/**
 * @param ctx {sim, postgres, cluster, flatted}
 * @param options
 *   workflowId, path: the lead-import workflow (Continue On Fail on)
 *   series: the phone series; items: leads in the import
 *   killAt: kill once this many of its leads are stored
 *   freshWorker: the name of the worker started after the kill
 *   statusTimeoutMs: the longest wait, from the kill, for the killed execution's status
 */
async function runKilledImport(
	ctx,
	{
		workflowId,
		path,
		series,
		items = 300,
		killAt = 100,
		freshWorker = 'worker-3',
		concurrency = 5,
		statusTimeoutMs = 240_000,
	},
) {
	const { sim, postgres, cluster, flatted } = ctx;
	sim.simulator.limiter.reset();
	const phones = Array.from({ length: items }, (_, i) => phoneOf(series, i));
	const leads = phones.map((phone, i) => ({ phone, name: `Lead ${series}-${i}` }));
	const wanted = new Set(phones);
	const storedLeads = () => sim.state.leads.filter((l) => wanted.has(l.phone_number));
	const send = async () => {
		const res = await fetch(`${cluster.baseUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ leads }),
		});
		await res.text();
		return res.status;
	};
	const newExecution = async (known) =>
		(await executionsOf(postgres, workflowId)).find((r) => !known.has(String(r.id)));

	// 1. the import, and the worker that runs it
	const before = new Set((await executionsOf(postgres, workflowId)).map((r) => String(r.id)));
	const firstAnswer = await send();
	const killed = await waitFor(
		'the execution of the import',
		() => newExecution(before),
		30_000,
		50,
	);
	const killedId = String(killed.id);
	const workers = () => cluster.processes.filter((p) => p !== cluster.main && p.running());
	const runner = await waitFor(
		`the worker of execution ${killedId}`,
		() => cluster.executionsByWorker()[killedId]?.[0],
		30_000,
		20,
	).catch(() => undefined);

	// 2. SIGKILL once `killAt` leads are stored (the simulator runs in this process: its state is exact)
	await waitFor(`${killAt} leads stored`, () => storedLeads().length >= killAt, 60_000, 5);
	const victims = runner ? workers().filter((p) => p.name === runner) : workers();
	for (const p of victims) p.kill();
	const killedAt = Date.now();
	const storedAtKill = storedLeads().length;
	const logAtKill = sim.log.length;
	const statusRows = await executionsOf(postgres, workflowId);
	const statusAtKill = statusRows.find((r) => String(r.id) === killedId)?.status;

	// the time until n8n gives the killed execution a final status, measured while the rest goes on
	const status = (async () => {
		const row = await waitFor(
			`a final status of the killed execution ${killedId}`,
			async () =>
				(await executionsOf(postgres, workflowId)).find(
					(r) => String(r.id) === killedId && FINISHED.includes(r.status),
				),
			statusTimeoutMs,
			1000,
		);
		return { row, seconds: Math.round((Date.now() - killedAt) / 100) / 10 };
	})();
	status.catch(() => {}); // awaited below; not an unhandled rejection meanwhile

	await waitFor('the killed worker gone', () => victims.every((p) => !p.running()), 10_000, 50);
	// what was on its way when the worker died has arrived by now
	await sleep(1000);
	const storedAfterKill = storedLeads().length;

	// 3. a fresh worker, so the cluster goes on (and the queue's stalled-job check runs)
	await cluster.startWorker(freshWorker, { concurrency });
	const storedBeforeRerun = storedLeads().length;
	const storedBefore = storedLeads();

	// 4. the same import again, with the defaults
	const logAtRerun = sim.log.length;
	const known = new Set((await executionsOf(postgres, workflowId)).map((r) => String(r.id)));
	const rerunStarted = Date.now();
	const secondAnswer = await send();
	const rerunRow = await waitFor(
		'the second run to finish',
		async () => {
			const row = await newExecution(known);
			return row && FINISHED.includes(row.status) && row;
		},
		180_000,
		500,
	);
	const rerunSeconds =
		Math.round((new Date(rerunRow.stoppedAt).getTime() - rerunStarted) / 100) / 10;
	const logAfterRerun = sim.log.length;
	const [rerun] = (await executionsOf(postgres, workflowId, { withData: true, flatted })).filter(
		(r) => String(r.id) === String(rerunRow.id),
	);
	const output = nodeOutput(rerun.run, 'Create Lead');

	// 5. the killed execution's status
	const final = await status;
	const [killedRecord] = (
		await executionsOf(postgres, workflowId, { withData: true, flatted })
	).filter((r) => String(r.id) === killedId);
	const rerunRequests = sim.log.slice(logAtRerun, logAfterRerun).filter(isLeadRequest);
	const stored = storedLeads();
	const perPhone = new Map();
	for (const lead of stored)
		perPhone.set(lead.phone_number, (perPhone.get(lead.phone_number) || 0) + 1);

	const figures = {
		kind: 'killed worker, run again',
		label: `a worker killed after ${killAt} of ${items} leads, then the import run again (defaults)`,
		items,
		storedAtKill,
		storedAfterKill,
		killedWorker: victims.map((p) => p.name).join('+'),
		killedStatus: final.row.status,
		secondsToStatus: final.seconds,
		killedMessage: killedRecord?.run?.resultData?.error?.message,
		rerunItems: output.items.length,
		rerunErrorItems: output.items.filter((j) => j.error !== undefined).length,
		alreadyStored: output.items.filter((j) => j.already_stored === true).length,
		leadsStored: perPhone.size,
		duplicates: [...perPhone.values()].filter((n) => n > 1).length,
		rerunCreates: rerunRequests.filter((e) => e.method === 'POST' && e.status !== 429).length,
		rerunReads: rerunRequests.filter((e) => e.method === 'GET' && e.status !== 429).length,
		rerun429s: rerunRequests.filter((e) => e.status === 429).length,
		rerunSeconds,
	};
	return {
		figures,
		answers: [firstAnswer, secondAnswer],
		killedId,
		runner,
		victims,
		statusAtKill,
		killedRecord,
		rerun,
		output,
		phones,
		stored,
		storedBeforeRerun,
		storedBefore,
		// lead requests from the kill until the second run started, and after it finished until the status
		requestsAfterKill: sim.log.slice(logAtKill, logAtRerun).filter(isLeadRequest),
		requestsAfterRerun: sim.log.slice(logAfterRerun).filter(isLeadRequest),
		executions: await executionsOf(postgres, workflowId),
	};
}

function formatKilledImport(f) {
	return `${f.label}: stored at the kill ${f.storedAtKill} (${f.storedAfterKill} after it), the killed execution "${f.killedStatus}" after ${f.secondsToStatus.toFixed(1)} s, not run again; the second run ${f.rerunItems} items, ${f.rerunErrorItems} errors, ${f.alreadyStored} already stored, ${f.leadsStored} leads, ${f.duplicates} duplicates (${f.rerunCreates} creates, ${f.rerunReads} reads, ${f.rerun429s} 429s, ${f.rerunSeconds.toFixed(1)} s)`;
}

module.exports = { runKilledImport, formatKilledImport };
