/**
 * The environment of an n8n process: one base block (loopback, no telemetry,
 * logs to a file, community packages on), what differs between the n8n lines
 * (LINES), and what queue mode and try-it add (options of n8nEnvironment).
 */
const path = require('path');
const { runtimeModule } = require('./runtime');

/** The owner account every e2e home has (2.x creates it from the environment at start, 1.x at the first home.rest()). */
const OWNER = {
	email: 'owner@example.com',
	password: 'E2e-Owner-Password-1',
	firstName: 'E2E',
	lastName: 'Owner',
};
const ENCRYPTION_KEY = 'e2e-test-encryption-key-0123456789';

/** The same for every process of every harness. */
const BASE = {
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	N8N_LOG_OUTPUT: 'file',
	N8N_LOG_LEVEL: 'info',
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_SECURE_COOKIE: 'false',
	N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
};

/** The owner account n8n 2.x creates (or updates) from the environment at start. */
function ownerEnv(owner = OWNER, runtime) {
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: owner.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: runtimeModule('bcryptjs', runtime).hashSync(
			owner.password,
			10,
		),
	};
}

/** The differences between the n8n lines the harnesses run on. */
const LINES = {
	v2: {
		env: (runtime, { owner = OWNER } = {}) => ({
			N8N_DISABLED_MODULES: 'mcp-registry', // this module calls out even with telemetry off
			// the owner account, created by n8n from the environment at start
			...ownerEnv(owner, runtime),
		}),
		/** `update:workflow --active=true` is deprecated on 2.x */
		activateArgs: (id) => ['publish:workflow', `--id=${id}`],
		ownerFromEnv: true,
	},
	v1: {
		env: () => ({
			// isolated-vm does not build for Node 20; the task runners need it too
			N8N_EXPRESSION_ENGINE: 'legacy',
			N8N_RUNNERS_ENABLED: 'false',
			// 1.x rejects unknown module names in N8N_DISABLED_MODULES (there is no mcp-registry) and
			// has no owner from the environment: the first REST client claims the instance (POST /owner/setup)
		}),
		activateArgs: (id) => ['update:workflow', `--id=${id}`, '--active=true'],
		ownerFromEnv: false,
	},
};

/** The line of N8N_E2E_LINE (`v2` unless set). */
function currentLine() {
	const line = process.env.N8N_E2E_LINE || 'v2';
	if (!LINES[line])
		throw new Error(`N8N_E2E_LINE=${line}: use one of ${Object.keys(LINES).join(', ')}`);
	return line;
}

/**
 * What queue mode adds to every process of a cluster (main and workers): the
 * shared PostgreSQL database and Redis, the main's port and webhook URL,
 * manual executions on the workers.
 */
function queueEnv({ postgres, redis, mainPort, binaryDataMode = 'database' }) {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		N8N_DEFAULT_BINARY_DATA_MODE: binaryDataMode,
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_PORT: String(mainPort),
		N8N_WEBHOOK_URL: `http://127.0.0.1:${mainPort}/`,
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	};
}

/**
 * What try-it's `n8n start` adds to its home's environment: its port, the log
 * on the console (try-it keeps it in n8n-start.log), and the demo owner.
 */
function tryItEnv({ port, owner, runtime }) {
	return { N8N_PORT: String(port), N8N_LOG_OUTPUT: 'console', ...ownerEnv(owner, runtime) };
}

/**
 * The environment of one n8n process.
 * - `runtime`: from runtimeEnv(); its Node comes first in PATH
 * - `folder`: the user folder (HOME, N8N_USER_FOLDER); `logFile` defaults to `<folder>/n8n.log`
 * - `line`: LINES key; `owner`: the owner of the v2 line's environment
 * - `brokerPort`: the task runners' broker port
 * - `queue`: queueEnv() options, for a process of a queue-mode cluster
 * - `tmpDir`: TMPDIR of the process (queue mode keeps n8n's temp files in its folder)
 * - `extra`: anything else, last
 */
function n8nEnvironment({
	runtime,
	folder,
	line = 'v2',
	owner = OWNER,
	encryptionKey = ENCRYPTION_KEY,
	brokerPort,
	logFile = path.join(folder, 'n8n.log'),
	queue,
	tmpDir,
	extra = {},
}) {
	return {
		PATH: `${path.dirname(runtime.N8N_NODE_BIN)}:${process.env.PATH}`,
		HOME: folder,
		...(tmpDir ? { TMPDIR: tmpDir } : {}),
		N8N_USER_FOLDER: folder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		...BASE,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LOG_FILE_LOCATION: logFile,
		...LINES[line].env(runtime, { owner }),
		...(queue ? queueEnv(queue) : {}),
		...extra,
	};
}

module.exports = {
	BASE,
	LINES,
	OWNER,
	ENCRYPTION_KEY,
	currentLine,
	ownerEnv,
	queueEnv,
	tryItEnv,
	n8nEnvironment,
};
