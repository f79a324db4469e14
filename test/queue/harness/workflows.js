/**
 * Workflows and measurements of the queue-mode suite. Every workflow starts at
 * a production Webhook (or our trigger), so that the main enqueues it and a
 * worker runs it; the CLI's `execute` would run in-process and prove nothing.
 * The builders live in the shared harness (test/harness/n8n/workflows.js);
 * the execution records are read from the cluster's PostgreSQL here.
 */
const builders = require('../../harness/n8n/workflows');
const { waitUntil } = require('../../harness/n8n/server');

const FINISHED = ['success', 'error', 'crashed', 'canceled'];

/** Executions of a workflow (newest last), with their parsed run data when `withData`. */
async function executionsOf(postgres, workflowId, { withData = false, flatted } = {}) {
	const rows = await postgres.query(
		'select id, status, mode, "createdAt", "startedAt", "stoppedAt" from execution_entity where "workflowId" = $1 order by id',
		[workflowId],
	);
	if (withData && rows.length) {
		const data = await postgres.query(
			'select "executionId", data from execution_data where "executionId" = any($1::int[])',
			[rows.map((r) => Number(r.id))],
		);
		const byId = new Map(data.map((d) => [String(d.executionId), d.data]));
		for (const row of rows) {
			const raw = byId.get(String(row.id));
			row.raw = raw;
			row.run = raw ? flatted.parse(raw) : undefined;
		}
	}
	return rows;
}

/** Waits until `probe` gives a truthy value and returns it (an error of the probe ends the wait). */
function waitFor(what, probe, timeoutMs = 60_000, intervalMs = 300) {
	return waitUntil(what, probe, { timeoutMs, intervalMs, ignoreErrors: false });
}

/** The one execution of an upload workflow, with its run data, once it has finished. */
async function finishedUpload(postgres, workflowId, flatted) {
	const [execution] = await waitFor('the upload execution', async () => {
		const r = await executionsOf(postgres, workflowId, { withData: true, flatted });
		return r.length === 1 && FINISHED.includes(r[0].status) && r;
	});
	return execution;
}

/** The document uploads the simulator received whose body holds `sha` (the file's SHA-256). */
const uploadsOf = (sim, sha) =>
	sim.log.filter(
		(e) =>
			e.method === 'POST' && /\/documents$/.test(e.path) && JSON.stringify(e.body).includes(sha),
	);

module.exports = {
	...builders,
	executionsOf,
	waitFor,
	FINISHED,
	finishedUpload,
	uploadsOf,
};
