/**
 * Long-running n8n processes (`n8n start`, `n8n worker`): spawn, wait until
 * ready, stop. One waiting loop (waitUntil) and one stopper (stopChild) for
 * every harness, also for the queue suite's PostgreSQL and Redis.
 */
const { spawn } = require('child_process');
const fs = require('fs');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

/**
 * Waits until `probe` resolves truthy and returns that value.
 * - `child`: fails early when it has exited (with the end of `logFile`, if given)
 * - `ignoreErrors`: a probe that throws counts as "not yet" (default); otherwise the error ends the wait
 * - `cancelled`: when it returns true, the wait ends with `undefined`
 */
async function waitUntil(
	what,
	probe,
	{ child, timeoutMs = 60_000, intervalMs = 250, logFile, ignoreErrors = true, cancelled } = {},
) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		if (cancelled?.()) return undefined;
		if (child && hasExited(child)) {
			const tail =
				logFile && fs.existsSync(logFile)
					? `\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`
					: '';
			throw new Error(
				`${what}: the process exited with ${child.exitCode ?? child.signalCode}${logFile ? ` (log: ${logFile})` : ''}${tail}`,
			);
		}
		try {
			const value = await probe();
			if (value) return value;
		} catch (error) {
			if (!ignoreErrors) throw error;
		}
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await sleep(intervalMs);
	}
}

/**
 * True once an n8n server at `baseUrl` answers its readiness check; with
 * `restMounted`, also once its REST controllers are mounted (1.x answers
 * readiness before: the login route must no longer be a 404).
 */
async function isReady(baseUrl, { restMounted = false } = {}) {
	const ready = await fetch(`${baseUrl}/healthz/readiness`);
	await ready.arrayBuffer();
	if (!ready.ok) return false;
	if (!restMounted) return true;
	const login = await fetch(`${baseUrl}/rest/login`);
	await login.arrayBuffer();
	return login.status !== 404;
}

function signal(child, sig, group) {
	try {
		if (group) process.kill(-child.pid, sig);
		else child.kill(sig);
	} catch {
		// the process has already exited
	}
}

/**
 * Stops a child: `signal` to its process group (or to it alone with
 * `group: false`), SIGKILL after `graceMs`; with `sweep`, SIGKILL to the group
 * once it has exited (anything of the group still left). A child that
 * has exited already is left alone.
 */
async function stopChild(
	child,
	{ signal: sig = 'SIGTERM', graceMs = 15_000, group = true, sweep = false } = {},
) {
	if (!child || hasExited(child)) return;
	const exited = new Promise((r) => child.once('exit', r));
	signal(child, sig, group);
	const timer = setTimeout(() => signal(child, 'SIGKILL', group), graceMs);
	await exited;
	clearTimeout(timer);
	if (sweep) signal(child, 'SIGKILL', group);
}

/**
 * Spawns `n8n <args>` with its output appended to `outputFile`: through a file
 * descriptor, or with `pipeOutput` through this process (try-it). `detached`
 * (default) gives it its own process group, so that a stop reaches its task
 * runners too.
 */
function spawnN8n({
	runtime,
	args,
	env,
	cwd,
	outputFile,
	name,
	detached = true,
	pipeOutput = false,
	stop: stopOptions = {},
}) {
	let child;
	if (pipeOutput) {
		child = spawn(runtime.N8N_NODE_BIN, [runtime.N8N_BIN, ...args], {
			env,
			cwd,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached,
		});
		child.stdout.on('data', (d) => fs.appendFileSync(outputFile, d));
		child.stderr.on('data', (d) => fs.appendFileSync(outputFile, d));
	} else {
		const out = fs.openSync(outputFile, 'a');
		child = spawn(runtime.N8N_NODE_BIN, [runtime.N8N_BIN, ...args], {
			env,
			cwd,
			stdio: ['ignore', out, out],
			detached,
		});
		fs.closeSync(out);
	}
	return {
		name,
		child,
		pid: child.pid,
		outputFile,
		running: () => !hasExited(child),
		/** Stops it with the options given at spawn (`stop`), overridable here. */
		stop: (options = {}) => stopChild(child, { group: detached, ...stopOptions, ...options }),
		kill: () => signal(child, 'SIGKILL', detached),
	};
}

/**
 * Spawns an n8n server process and waits until `readyUrl` (default `baseUrl`)
 * is ready (see isReady). With `stopOnFailure` (default), a process that does
 * not get ready is stopped before the error is thrown.
 */
async function startN8n({
	baseUrl,
	readyUrl = baseUrl,
	restMounted = false,
	timeoutMs = 120_000,
	intervalMs = 250,
	logFile,
	what = 'n8n',
	stopOnFailure = true,
	onSpawn,
	...spawnOptions
}) {
	const proc = spawnN8n(spawnOptions);
	onSpawn?.(proc);
	try {
		await waitUntil(what, () => isReady(readyUrl, { restMounted }), {
			child: proc.child,
			timeoutMs,
			intervalMs,
			logFile: logFile ?? proc.outputFile,
		});
	} catch (error) {
		if (stopOnFailure) await proc.stop();
		throw error;
	}
	return proc;
}

/**
 * What the tests wait for: polls `probe` (sync or async) every 300 ms until it answers something
 * truthy, which it returns; a probe that throws ends the wait with its error.
 */
function waitFor(what, probe, timeoutMs = 60_000) {
	return waitUntil(what, probe, { timeoutMs, intervalMs: 300, ignoreErrors: false });
}

/** waitFor with another default time-out (a file whose waits take n8n's real polls). */
const waiter =
	(defaultTimeoutMs) =>
	(what, probe, timeoutMs = defaultTimeoutMs) =>
		waitFor(what, probe, timeoutMs);

module.exports = { waitUntil, waitFor, waiter, isReady, stopChild, spawnN8n, startN8n, sleep };
