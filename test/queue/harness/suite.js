/**
 * What the queue-mode suite sets up around its tests: the credentials and
 * workflows it imports into the cluster (`ids` names the workflows by their
 * role), the files its upload tests look for, its report (the n8n logs and
 * the import figures) and its teardown, each step on its own.
 */
const { createHash } = require('crypto');
const fs = require('fs');
const path = require('path');
const {
	credential,
	leadImportWorkflow,
	uploadFromRequestWorkflow,
	uploadFromWorkerBinaryWorkflow,
	triggerWorkflow,
} = require('../../harness/n8n/workflows');
const { SIM_LIMITS, formatFigures } = require('./leadImport');
const { formatKilledImport } = require('./killedWorker');
const { cleanupAll } = require('./registry');

const ROOT = path.resolve(__dirname, '../../..');
const RESULTS = path.join(ROOT, '.tmp/test-results');
const LOGS = path.join(ROOT, '.tmp/queue-run/logs');
const ASSISTANT_ID = 1; // the simulator's inbound assistant
// the trigger of the scale-out test (webhook processes behind the balancer)
const SCALE_OUT_WEBHOOK_ID = '0c3f5a8e-6b1d-4e2f-9a7c-1d2e3f4a5b6e';
// the credential of the uploads and the triggers
const MISC = 'queueMisc0000001';

/**
 * The suite's credentials: each with the simulator's whole limits but the
 * one whose budget is divided between `workers` workers.
 */
function suiteCredentials(simUrl, workers) {
	const { perMinute, burst } = SIM_LIMITS;
	const whole = (id) => credential(id, simUrl, { requestsPerMinute: perMinute, burst });
	return [
		// the account's whole budget in every process: what a user gets by copying the limits
		whole('queueFullBudget1'),
		// the documented setting: the budget divided by the number of workers
		credential('queueSplitBudget', simUrl, {
			requestsPerMinute: perMinute / workers,
			burst: burst / workers,
		}),
		whole('queueOneWorker01'),
		whole(MISC),
		whole('queueRunAgainCr1'),
		// its own budget: warming the workers up leaves the imports' budgets untouched
		whole('queueWarmUpCred1'),
	];
}

/** The workflow with Continue On Fail (On Error → Continue) on its Create Lead node. */
function continueOnFail(workflow) {
	for (const node of workflow.nodes)
		if (node.name === 'Create Lead') node.onError = 'continueRegularOutput';
	return workflow;
}

/** The suite's workflows by their role, in the order of their import and activation. */
function suiteWorkflows() {
	const webhookId = (n) => `6f1c0a00-0000-4000-8000-00000000000${n}`;
	const leads = (id, path, n, credentialId) =>
		leadImportWorkflow({ id, path, webhookId: webhookId(n), credentialId });
	const trigger = (id, hook) =>
		triggerWorkflow({ id, webhookId: hook, credentialId: MISC, assistantId: ASSISTANT_ID });
	return {
		fullBudget: leads('queueLeadsFull01', 'leads-full', 1, 'queueFullBudget1'),
		splitBudget: leads('queueLeadsSplit1', 'leads-split', 2, 'queueSplitBudget'),
		oneWorker: leads('queueLeadsOneW01', 'leads-one', 3, 'queueOneWorker01'),
		uploadFromMain: uploadFromRequestWorkflow({
			id: 'queueUploadMain1',
			path: 'upload-received',
			webhookId: webhookId(4),
			credentialId: MISC,
		}),
		uploadFromWorker: uploadFromWorkerBinaryWorkflow({
			id: 'queueUploadWrk01',
			path: 'upload-made',
			webhookId: webhookId(5),
			credentialId: MISC,
		}),
		trigger: trigger('queueTriggerWf01', '0c3f5a8e-6b1d-4e2f-9a7c-1d2e3f4a5b6d'),
		scaleOut: trigger('queueTriggerWp01', SCALE_OUT_WEBHOOK_ID),
		runAgain: continueOnFail(leads('queueRunAgain001', 'leads-again', 6, 'queueRunAgainCr1')),
		warmUp: leads('queueLeadsWarm01', 'leads-warm', 7, 'queueWarmUpCred1'),
	};
}

/** The ids of the suite's workflows by their role. */
const ids = Object.fromEntries(Object.entries(suiteWorkflows()).map(([role, w]) => [role, w.id]));

/** A PDF of `size` bytes of `fill` between its header and its end, and its SHA-256. */
function pdfOf(size, fill) {
	const content = Buffer.concat([
		Buffer.from('%PDF-1.4\n'),
		Buffer.alloc(size, fill),
		Buffer.from('\n%%EOF'),
	]);
	return { content, sha: createHash('sha256').update(content).digest('hex') };
}

/** Files under a folder (the installed package left out), with sizes. */
function filesUnder(dir) {
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (file.endsWith(path.join('.n8n', 'nodes'))) continue;
			out.push(...filesUnder(file));
		} else if (entry.isFile()) out.push({ file, size: fs.statSync(file).size });
	}
	return out;
}

/**
 * Writes the n8n log of every process of the cluster to .tmp/queue-run/logs and
 * the figures of the imports to .tmp/test-results (text and JSON), and prints them.
 */
function writeReport(cluster, figures) {
	fs.mkdirSync(LOGS, { recursive: true });
	for (const p of cluster?.processes ?? [])
		fs.writeFileSync(path.join(LOGS, `${p.name}.log`), p.log());
	if (!figures.length) return;
	fs.mkdirSync(RESULTS, { recursive: true });
	const text =
		figures.map((f) => (f.kind ? formatKilledImport(f) : formatFigures(f))).join('\n') + '\n';
	fs.writeFileSync(path.join(RESULTS, 'queue-lead-import.txt'), text);
	fs.writeFileSync(path.join(RESULTS, 'queue-lead-import.json'), JSON.stringify(figures, null, 2));
	console.log(
		`Lead import in queue mode (simulator limits ${SIM_LIMITS.perMinute}/min, ${SIM_LIMITS.burst} per 10 s):\n${text}`,
	);
}

/**
 * Stops what the suite started (any of it may be missing after a failed
 * start): the cluster, then PostgreSQL and Redis, the simulator, the
 * balancer, and whatever the registry still holds. Each step on its own: one
 * failing must not leave the others running.
 */
async function stopSuite({ cluster, postgres, redis, sim, balancer }) {
	const safely = (step) =>
		Promise.resolve()
			.then(step)
			.catch((e) => console.error(e));
	await safely(() => cluster?.stopAll());
	await Promise.all([safely(() => postgres?.stop()), safely(() => redis?.stop())]);
	await safely(() => sim?.close());
	await safely(() => balancer?.close());
	await safely(() => cleanupAll());
}

module.exports = {
	ASSISTANT_ID,
	SCALE_OUT_WEBHOOK_ID,
	suiteCredentials,
	suiteWorkflows,
	continueOnFail,
	ids,
	pdfOf,
	filesUnder,
	writeReport,
	stopSuite,
};
