/**
 * Remembers every process and temp folder the queue-mode suite starts, in a
 * file, so that they are cleaned up even when the test process itself dies:
 * scripts/test-queue.sh runs `node scripts/queue/cleanup.js <file>` on exit.
 *
 * A process is recorded with its start time (field 22 of /proc/<pid>/stat):
 * cleanup only signals a pid whose start time still matches, never a
 * recycled one. Processes are started detached (own process group), so a
 * signal to the group reaches their children too (postgres backends, n8n's
 * task runners).
 */
const fs = require('fs');
const path = require('path');
const { startTime, isAlive } = require('../../harness/n8n/processes');

const ROOT = path.resolve(__dirname, '../../..');
const DEFAULT_FILE = path.join(ROOT, '.tmp/queue-run/registry.jsonl');

function registryFile() {
	return process.env.QUEUE_REGISTRY_FILE || DEFAULT_FILE;
}

function append(entry) {
	const file = registryFile();
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.appendFileSync(file, JSON.stringify(entry) + '\n');
}

function recordProcess(pid, name) {
	append({ kind: 'process', pid, start: startTime(pid), name });
}

function recordDir(dir) {
	append({ kind: 'dir', dir });
}

function entries(file = registryFile()) {
	if (!fs.existsSync(file)) return [];
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			try {
				return JSON.parse(line);
			} catch {
				return null;
			}
		})
		.filter(Boolean);
}

function alive(entry) {
	// a zombie still counts: it gets the signal too, harmlessly
	return isAlive({ pid: entry.pid, startTime: entry.start }, { zombies: true });
}

function signalGroup(entry, signal) {
	if (!alive(entry)) return false;
	try {
		process.kill(-entry.pid, signal);
		return true;
	} catch {
		try {
			process.kill(entry.pid, signal);
			return true;
		} catch {
			return false;
		}
	}
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops what is still running (SIGTERM, then SIGKILL after `graceMs`), removes
 * the folders, and empties the file. Returns what it had to clean.
 */
async function cleanupAll({ file = registryFile(), graceMs = 15_000, log = () => {} } = {}) {
	const all = entries(file);
	const procs = all.filter((e) => e.kind === 'process' && alive(e));
	// n8n processes first (they need the database and Redis to stop cleanly), then the services
	const isService = (p) => p.name === 'postgres' || p.name === 'redis';
	for (const group of [procs.filter((p) => !isService(p)), procs.filter(isService)]) {
		for (const p of group) {
			log(`stopping ${p.name} (pid ${p.pid})`);
			// postgres: SIGINT is its "fast" shutdown; everything else takes SIGTERM
			signalGroup(p, p.name === 'postgres' ? 'SIGINT' : 'SIGTERM');
		}
		const end = Date.now() + graceMs;
		while (group.some(alive) && Date.now() < end) await sleep(200);
		for (const p of group.filter(alive)) {
			log(`killing ${p.name} (pid ${p.pid})`);
			signalGroup(p, 'SIGKILL');
		}
	}
	const dirs = all.filter((e) => e.kind === 'dir' && fs.existsSync(e.dir));
	for (const d of dirs) fs.rmSync(d.dir, { recursive: true, force: true });
	if (fs.existsSync(file)) fs.rmSync(file);
	return { processes: procs.map((p) => `${p.name}:${p.pid}`), dirs: dirs.map((d) => d.dir) };
}

module.exports = { recordProcess, recordDir, cleanupAll, startTime, entries, registryFile };
