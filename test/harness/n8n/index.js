/**
 * The harness of a real n8n, shared by the e2e tests (test/e2e), the
 * queue-mode suite (test/queue), the benchmarks (bench/) and try-it
 * (scripts/try-it.js, scripts/verify-try-it.js):
 *
 * - runtime.js      the runtime of scripts/n8n-runtime/install.sh, the packed tarball, its installation
 * - environment.js  the N8N_* environment: one base block, LINES (v2/v1), what queue mode and try-it add
 * - cli.js          n8n CLI commands: import, activate, execute
 * - server.js       spawn / wait until ready / stop of `n8n start` and `n8n worker`
 * - rest.js         the REST client (login or owner setup, activate, deactivate, test events...)
 * - processes.js    /proc readers (descendants, environment, listening sockets) and free ports
 * - workflows.js    workflow builders and run-record readers
 * - database.js     n8n's database of a home: migrated once per runtime, credentials saved without a boot
 * - home.js         createN8nHome(): a user folder with the package, its CLI and server
 * - simulatorHome.js the simulator and a home with its credential, as most e2e files start
 * - simulatorControl.js the simulator's test controls (calls that end, faults), copies of its
 *                   assistants, the wait until n8n serves an assistant's webhook
 */
module.exports = {
	...require('./runtime'),
	...require('./environment'),
	...require('./cli'),
	...require('./server'),
	...require('./rest'),
	...require('./processes'),
	...require('./workflows'),
	...require('./home'),
	...require('./simulatorHome'),
	...require('./simulatorControl'),
};
