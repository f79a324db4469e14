/**
 * Throw-away PostgreSQL and Redis servers for the queue-mode suite: Debian's
 * packages (installed by scripts/queue/install-services.sh when missing),
 * started here as child processes on 127.0.0.1 with their data in a temp
 * folder, never the system's services.
 */
const { execFileSync, spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const registry = require('./registry');
const { freePort, tcpOpen, waitUntil, stopChild, runtimeModule } = require('../../harness/n8n');

const ROOT = path.resolve(__dirname, '../../..');

/** Binaries of the installed packages (installs them first when missing). */
function serviceBinaries() {
	if (process.env.QUEUE_PG_BIN_DIR && process.env.QUEUE_REDIS_SERVER) {
		return { pgBinDir: process.env.QUEUE_PG_BIN_DIR, redisServer: process.env.QUEUE_REDIS_SERVER };
	}
	const out = execFileSync('bash', [path.join(ROOT, 'scripts/queue/install-services.sh')], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const line = out.trim().split('\n').pop();
	const m = /PG_BIN_DIR=(\S+) REDIS_SERVER=(\S+)/.exec(line);
	if (!m) throw new Error(`install-services.sh printed no binaries: ${out}`);
	return { pgBinDir: m[1], redisServer: m[2] };
}

function tempDir(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	registry.recordDir(dir);
	return dir;
}

/**
 * PostgreSQL, run as the `postgres` system user (it refuses to run as root),
 * trust authentication on 127.0.0.1 only, no Unix socket outside its folder.
 */
async function startPostgres({
	pgBinDir = serviceBinaries().pgBinDir,
	database = 'n8n',
	user = 'n8n',
} = {}) {
	const dir = tempDir('queue-pg-');
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	fs.chownSync(dir, uid, gid);
	fs.chmodSync(dir, 0o700);
	const data = path.join(dir, 'data');
	const logFile = path.join(dir, 'postgres.log');
	const asPostgres = {
		uid,
		gid,
		cwd: dir,
		env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: dir },
	};
	execFileSync(
		path.join(pgBinDir, 'initdb'),
		['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
		{ ...asPostgres, stdio: 'pipe' },
	);
	const port = await freePort();
	const out = fs.openSync(logFile, 'a');
	fs.fchownSync(out, uid, gid);
	const child = spawn(
		path.join(pgBinDir, 'postgres'),
		[
			'-D',
			data,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			`unix_socket_directories=${dir}`,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		],
		{ ...asPostgres, stdio: ['ignore', out, out], detached: true },
	);
	fs.closeSync(out);
	registry.recordProcess(child.pid, 'postgres');
	const pg = requirePg();
	const admin = { host: '127.0.0.1', port, user, database: 'postgres' };
	await waitUntil(
		'postgres',
		async () => {
			const client = new pg.Client(admin);
			await client.connect();
			await client.end();
			return true;
		},
		{ child, logFile, timeoutMs: 60_000 },
	);
	const client = new pg.Client(admin);
	await client.connect();
	await client.query(`create database ${database}`);
	await client.end();
	return {
		host: '127.0.0.1',
		port,
		user,
		database,
		dir,
		pid: child.pid,
		/** Rows of a query on the n8n database. */
		async query(sql, params = []) {
			const c = new pg.Client({ host: '127.0.0.1', port, user, database });
			await c.connect();
			try {
				return (await c.query(sql, params)).rows;
			} finally {
				await c.end();
			}
		},
		async stop() {
			// SIGINT: "fast" shutdown (ends the sessions, writes no checkpoint wait)
			await stopChild(child, { signal: 'SIGINT', graceMs: 15_000 });
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** Redis without persistence, on 127.0.0.1. */
async function startRedis({ redisServer = serviceBinaries().redisServer } = {}) {
	const dir = tempDir('queue-redis-');
	const port = await freePort();
	const logFile = path.join(dir, 'redis.log');
	const out = fs.openSync(logFile, 'a');
	const child = spawn(
		redisServer,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--protected-mode',
			'yes',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--dir',
			dir,
		],
		{ cwd: dir, stdio: ['ignore', out, out], detached: true },
	);
	fs.closeSync(out);
	registry.recordProcess(child.pid, 'redis');
	await waitUntil('redis', () => tcpOpen(port), { child, logFile, timeoutMs: 30_000 });
	return {
		host: '127.0.0.1',
		port,
		dir,
		pid: child.pid,
		async stop() {
			await stopChild(child, { signal: 'SIGTERM', graceMs: 10_000 });
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** n8n's own copy of the PostgreSQL client (the runtime is installed anyway). */
function requirePg() {
	return runtimeModule('pg');
}

module.exports = { startPostgres, startRedis, serviceBinaries, tempDir, runtimeModule };
