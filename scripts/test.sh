#!/usr/bin/env bash
# Runs everything CI runs: install, build, lint, the unit and workflow layers,
# then the end-to-end layer in a real n8n (installed into a cache outside the
# repository on first use). Ends with one line: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
results="$root/.tmp/test-results"
mkdir -p "$results"
rm -f "$results"/*.json

step() { printf '\n==> %s\n' "$*"; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	step "npm install"
	npm install --no-audit --no-fund
fi

step "build"
npm run build

step "lint (n8n community-node rules)"
npm run lint

status=0
run_layer() {
	local name=$1; shift
	step "$name tests"
	if ! "$@" --json --outputFile="$results/$name.json"; then status=1; fi
	node -e '
		const r = require(process.argv[1]);
		console.log(`${process.argv[2]} layer: ${r.numPassedTests} passed, ${r.numFailedTests} failed (${r.numTotalTests} tests)`);
	' "$results/$name.json" "$name" || status=1
}

step "simulator self-test"
if node --test test/simulator/ > "$results/simulator.tap" 2>&1; then :; else status=1; fi
node -e '
	const tap = require("fs").readFileSync(process.argv[1], "utf8");
	const n = (k) => Number((new RegExp(`^# ${k} (\\d+)`, "m").exec(tap) || [0, 0])[1]);
	const r = { numPassedTests: n("pass"), numFailedTests: n("fail") + n("cancelled"), numTotalTests: n("tests") };
	require("fs").writeFileSync(process.argv[2], JSON.stringify(r));
	console.log(`simulator layer: ${r.numPassedTests} passed, ${r.numFailedTests} failed (${r.numTotalTests} tests)`);
' "$results/simulator.tap" "$results/simulator.json"

run_layer unit npx jest --config jest.config.js --selectProjects unit
run_layer workflow npx jest --config jest.config.js --selectProjects workflow --passWithNoTests

if [ "${SKIP_E2E:-}" != "1" ]; then
	step "n8n runtime (cached in ${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant})"
	bash scripts/n8n-runtime/install.sh v2
	step "pack"
	mkdir -p .tmp/pack && rm -f .tmp/pack/*.tgz
	npm pack --pack-destination .tmp/pack >/dev/null
	run_layer e2e npx jest --config jest.e2e.config.js
fi

node -e '
	const fs = require("fs");
	const dir = process.argv[1];
	let passed = 0, failed = 0;
	for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
		const r = JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8"));
		passed += r.numPassedTests; failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
	}
	console.log(`\n${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
' "$results" || status=1
exit $status
