#!/usr/bin/env node
'use strict';
/**
 * node test/simulator/cli.js --port 4010 [--rate-per-minute 100 --burst 20 --burst-window-ms 10000
 *   --window-ms 60000 --no-rate-limit --latency-ms 0 --doc-processing-ms 1500 --api-key KEY
 *   --tool-limit 10 --no-seed]
 * Prints `Simulator listening on http://127.0.0.1:PORT` and runs until SIGINT/SIGTERM.
 */
const { startSimulator } = require('./server');

const NUMERIC = {
	'--port': ['port'],
	'--rate-per-minute': ['rateLimit', 'perMinute'],
	'--burst': ['rateLimit', 'burst'],
	'--burst-window-ms': ['rateLimit', 'burstWindowMs'],
	'--window-ms': ['rateLimit', 'windowMs'],
	'--latency-ms': ['latencyMs'],
	'--doc-processing-ms': ['docProcessingMs'],
	'--tool-limit': ['toolLimit'],
	'--webhook-timeout-ms': ['webhookTimeoutMs'],
};

function usage(message) {
	if (message) process.stderr.write(`${message}\n`);
	process.stderr.write(
		'usage: node test/simulator/cli.js [--port N] [--rate-per-minute N] [--burst N] [--burst-window-ms N] [--window-ms N]\n' +
			'       [--no-rate-limit] [--latency-ms N] [--doc-processing-ms N] [--api-key KEY] [--tool-limit N] [--no-seed]\n',
	);
	process.exit(message ? 2 : 0);
}

function parseArgs(argv) {
	const options = {};
	const rateLimit = {};
	let rateLimitOff = false;
	for (let i = 0; i < argv.length; i++) {
		let arg = argv[i];
		let value;
		const eq = arg.indexOf('=');
		if (arg.startsWith('--') && eq > 0) {
			value = arg.slice(eq + 1);
			arg = arg.slice(0, eq);
		}
		const next = () => {
			if (value !== undefined) return value;
			if (i + 1 >= argv.length) usage(`missing value for ${arg}`);
			return argv[++i];
		};
		if (arg === '--help' || arg === '-h') usage();
		else if (arg === '--no-rate-limit') rateLimitOff = true;
		else if (arg === '--no-seed') options.seed = false;
		else if (arg === '--api-key') options.apiKey = next();
		else if (NUMERIC[arg]) {
			const n = Number(next());
			if (!Number.isFinite(n) || n < 0) usage(`${arg} needs a number >= 0`);
			const [key, sub] = NUMERIC[arg];
			if (sub) rateLimit[sub] = n;
			else options[key] = n;
		} else usage(`unknown argument ${arg}`);
	}
	if (rateLimitOff) options.rateLimit = false;
	else if (Object.keys(rateLimit).length) options.rateLimit = rateLimit;
	return options;
}

async function main() {
	const sim = await startSimulator(parseArgs(process.argv.slice(2)));
	process.stdout.write(`Simulator listening on ${sim.url}\n`);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		sim.close().then(() => process.exit(0));
		setTimeout(() => process.exit(0), 2000).unref();
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err) => {
	process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
	process.exit(1);
});
