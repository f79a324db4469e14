/*
 * The end of `bash scripts/test.sh`: where the time went and the one result line.
 *
 *   node scripts/test-summary.js <results folder>
 *
 * Reads <results>/timings.tsv (one line per step: name, seconds, group; written by
 * test.sh) and the jest/TAP results beside it (<layer>.json). Prints each step's wall
 * time against its budget (BUDGET below, the figures CONTRIBUTING.md gives), the steps
 * that ran side by side, the ten slowest test files of all layers, each failed test, and last
 * the line "N passed, N failed". Exits 1 when a test failed or a layer wrote no results.
 * A step over its budget is printed as such but fails nothing: time is a warning,
 * never a verdict on the code.
 */
'use strict';
const fs = require('fs');
const path = require('path');

/** Seconds each step may take on a 2-core machine with a warm cache (CONTRIBUTING.md, "Time budget"). */
const BUDGET = {
	install: 60,
	'checks and build': 150,
	lint: 60,
	simulator: 30,
	unit: 180,
	workflow: 90,
	'pack and scan': 30,
	'n8n runtimes': 15,
	'e2e-v2': 900,
	'e2e-v1': 720,
	'browser-v2': 150,
	'browser-v1': 150,
	queue: 390,
	total: 1500,
};

function readTimings(dir) {
	const file = path.join(dir, 'timings.tsv');
	if (!fs.existsSync(file)) return [];
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const [name, seconds, group = ''] = line.split('\t');
			return { name, seconds: Number(seconds), group };
		});
}

function readResults(dir) {
	const results = [];
	for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
		const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
		// figures written beside the results (queue-lead-import.json) are not results
		if (typeof r.numPassedTests !== 'number') continue;
		results.push({ layer: path.basename(f, '.json'), ...r });
	}
	return results;
}

function slowestFiles(results, root, count = 10) {
	const files = [];
	for (const r of results) {
		for (const t of r.testResults ?? []) {
			if (!t.startTime || !t.endTime) continue;
			files.push({
				layer: r.layer,
				file: path.relative(root, t.name),
				seconds: (t.endTime - t.startTime) / 1000,
			});
		}
	}
	return files.sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

/** Each failed test (or test file that failed to run): its layer, file and title. */
function failedTests(results, root) {
	const failures = [];
	for (const r of results) {
		for (const t of r.testResults ?? []) {
			const file = path.relative(root, t.name ?? '');
			const failedHere = (t.assertionResults ?? []).filter((a) => a.status === 'failed');
			for (const a of failedHere)
				failures.push({ layer: r.layer, file, title: a.fullName ?? a.title });
			if (!failedHere.length && t.status === 'failed')
				failures.push({ layer: r.layer, file, title: '(the file failed to run)' });
		}
	}
	return failures;
}

// whole seconds first, then minutes and seconds (539.96 s is 9:00, not 8:60)
const fmt = (s) => {
	const whole = Math.round(s);
	return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

function main() {
	const dir = path.resolve(process.argv[2] || '.tmp/test-results');
	const root = path.resolve(__dirname, '..');
	const timings = readTimings(dir);
	const results = readResults(dir);

	if (timings.length) {
		console.log(
			'\nWhere the time went (wall time, m:ss; budget for a 2-core machine, warm cache):',
		);
		for (const t of timings) {
			const budget = BUDGET[t.name];
			const over = budget !== undefined && t.seconds > budget ? '  OVER BUDGET' : '';
			const side = t.group ? `  (side by side: ${t.group})` : '';
			console.log(
				`  ${t.name.padEnd(18)} ${fmt(t.seconds).padStart(6)}${budget !== undefined ? `  / ${fmt(budget)}` : ''}${side}${over}`,
			);
		}
	}
	const slow = slowestFiles(results, root);
	if (slow.length) {
		console.log('\nSlowest test files:');
		for (const s of slow)
			console.log(`  ${fmt(s.seconds).padStart(6)}  ${s.layer.padEnd(11)} ${s.file}`);
	}

	// the failures last, where a cut log still shows them (steps that are no test layer: lint, scanner)
	const failures = failedTests(results, root);
	const stepsFile = path.join(dir, 'failed-steps');
	const steps = fs.existsSync(stepsFile)
		? fs.readFileSync(stepsFile, 'utf8').split('\n').filter(Boolean)
		: [];
	if (failures.length || steps.length) {
		console.log('\nFailed:');
		for (const step of steps) console.log(`  step        ${step}`);
		for (const f of failures) console.log(`  ${f.layer.padEnd(11)} ${f.file} › ${f.title}`);
	}

	let passed = 0;
	let failed = 0;
	for (const r of results) {
		passed += r.numPassedTests;
		failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
	}
	console.log(
		`\n${passed} passed, ${failed} failed${steps.length ? `, ${steps.length} step(s) failed` : ''}`,
	);
	process.exit(failed || steps.length ? 1 : 0);
}

if (require.main === module) main();

module.exports = { BUDGET, readTimings, slowestFiles, failedTests };
