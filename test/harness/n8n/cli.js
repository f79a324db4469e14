/**
 * n8n's CLI in a user folder: any command, and the ones the harnesses use
 * (import:credentials, import:workflow, activation, execute).
 */
const { execFile } = require('child_process');
const fs = require('fs');
const path = require('path');
const { LINES } = require('./environment');

/**
 * A runner of n8n CLI commands with `env` (the object itself: later changes to
 * it apply to later commands) in `cwd`: `(args, timeout) => {code, stdout, stderr}`.
 * The default time-out stays just under an e2e test's (180 s): with both n8n lines
 * running beside the other layers, an `execute` that boots n8n, runs and shuts it
 * down has taken over 120 s.
 */
function n8nCli({ runtime, env, cwd, timeout: defaultTimeout = 170_000 }) {
	return (args, timeout = defaultTimeout) =>
		new Promise((resolve) => {
			execFile(
				runtime.N8N_NODE_BIN,
				[runtime.N8N_BIN, ...args],
				{ env, cwd, timeout, maxBuffer: 64 * 1024 * 1024 },
				(error, stdout, stderr) => {
					resolve({
						code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
						signal: error?.signal ?? null,
						killed: Boolean(error?.killed),
						stdout,
						stderr,
					});
				},
			);
		});
}

function writeJson(folder, name, data) {
	const file = path.join(folder, name);
	fs.writeFileSync(file, JSON.stringify(data));
	return file;
}

/** `import:credentials` of a list of credentials, written to `<folder>/<fileName>`. */
async function importCredentials(cli, folder, credentials, fileName = 'credentials.json') {
	const result = await cli([
		'import:credentials',
		`--input=${writeJson(folder, fileName, credentials)}`,
	]);
	if (result.code !== 0)
		throw new Error(`import:credentials failed: ${result.stderr || result.stdout}`);
}

/** `import:workflow` of one workflow or a list of them, written to `<folder>/<fileName>`. */
async function importWorkflows(cli, folder, workflows, fileName) {
	const result = await cli([
		'import:workflow',
		`--input=${writeJson(folder, fileName, workflows)}`,
	]);
	if (result.code !== 0)
		throw new Error(`import:workflow failed: ${result.stderr || result.stdout}`);
}

/** Activates a workflow through the CLI (before `start`), as the line wants it. */
async function activateWorkflow(cli, line, workflowId) {
	const result = await cli(LINES[line].activateArgs(workflowId));
	if (result.code !== 0)
		throw new Error(
			`activating ${workflowId} failed (${result.code}): ${result.stderr || result.stdout}`,
		);
}

/** `execute --rawOutput`; `run` is the parsed run record (from the output or the part of `logFile` the run wrote). */
async function executeWorkflow(cli, workflowId, logFile) {
	const before = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
	const result = await cli(['execute', `--id=${workflowId}`, '--rawOutput']);
	const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(before) : '';
	const raw = `${result.stdout}\n${log}`;
	const run = extractRun(raw);
	// n8n may exit non-zero while it shuts down after a run it recorded as a success
	const ok = result.code === 0 || recordedSuccess(run);
	return {
		ok,
		exitCode: result.code,
		// why the run does not count, for the test's failure message
		why: ok ? undefined : failureOf(result, log),
		run,
		raw,
		stderr: result.stderr,
	};
}

/** Whether a run record says the execution finished with success and no error. */
function recordedSuccess(run) {
	if (!run || typeof run !== 'object') return false;
	const resultData = run.data?.resultData ?? run.resultData;
	if (!resultData || resultData.error) return false;
	return run.finished === true || run.status === 'success';
}

/** The exit code, the signal (a time-out kills), and the end of what n8n wrote. */
function failureOf(result, log) {
	const signal = result.signal
		? ` (${result.signal}${result.killed ? ', killed at the time-out' : ''})`
		: '';
	const text = `${result.stderr}\n${log}`.trim();
	return `n8n execute exited ${result.code}${signal}: ${text.slice(-1500)}`;
}

/** The run record printed by `execute --rawOutput`: the JSON object holding `resultData`/`runData` or `data`. */
function extractRun(text) {
	// with N8N_LOG_OUTPUT=file the record is the message of a JSON log line
	const fromLog = [];
	for (const line of text.split('\n')) {
		if (!line.startsWith('{') || !line.includes('runData')) continue;
		try {
			const entry = JSON.parse(line);
			if (typeof entry.message === 'string' && entry.message.trim().startsWith('{'))
				fromLog.push(JSON.parse(entry.message));
		} catch {
			// not a JSON log line
		}
	}
	if (fromLog.length) return fromLog.pop();
	const candidates = [];
	for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) {
		let depth = 0;
		let inString = false;
		for (let j = i; j < text.length; j++) {
			const c = text[j];
			if (inString) {
				if (c === '\\') j++;
				else if (c === '"') inString = false;
			} else if (c === '"') inString = true;
			else if (c === '{') depth++;
			else if (c === '}' && --depth === 0) {
				const slice = text.slice(i, j + 1);
				if (slice.includes('runData')) {
					try {
						candidates.push(JSON.parse(slice));
					} catch {
						// not a complete JSON object: the next candidate may be
					}
				}
				i = j;
				break;
			}
		}
	}
	return candidates.pop();
}

module.exports = {
	n8nCli,
	writeJson,
	importCredentials,
	importWorkflows,
	activateWorkflow,
	executeWorkflow,
	extractRun,
};
