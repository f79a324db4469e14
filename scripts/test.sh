#!/usr/bin/env bash
# Runs everything CI runs: install, the workflow files' lint, build, lint, n8n's package scanner, the
# simulator, unit and workflow layers, then the end-to-end layer in a real n8n
# (2.x and 1.123.x, installed into a cache outside the repository on first use),
# the editor in a real headless Chromium (browser layer, screenshots in .tmp/browser/)
# and the queue-mode suite (main + 2 workers, PostgreSQL, Redis).
# Ends with one line: "N passed, N failed".
#   SKIP_E2E=1    only the fast layers (no real n8n, no queue mode)
#   SKIP_QUEUE=1  everything but the queue-mode suite
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

step "workflow files lint (actionlint on .github/workflows)"
npm run lint:workflows

step "lock file and tested versions"
node scripts/lock-platform-bindings.js --check   # `npm ci` accepts package-lock.json
node scripts/check-versions.js                   # README names the n8n versions of scripts/n8n-runtime/versions.json

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

step "pack"
mkdir -p .tmp/pack && rm -f .tmp/pack/*.tgz
npm pack --pack-destination .tmp/pack >/dev/null

step "n8n's community-package scanner on the tarball"
if ! bash scripts/scan-package.sh .tmp/pack/*.tgz; then
	echo "scanner: findings (see above)"
	status=1
fi

if [ "${SKIP_E2E:-}" != "1" ]; then
	# the e2e harness reads n8n's sqlite database with Debian's sqlite3 CLI
	if ! command -v sqlite3 >/dev/null; then
		step "sqlite3 (Debian package)"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3
	fi
	# both tested n8n lines: 2.x on Node 24 (from the npm registry), 1.123.x on the machine's Node 20
	for line in v2 v1; do
		step "n8n runtime $line (cached in ${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant})"
		bash scripts/n8n-runtime/install.sh "$line"
	done
	for line in v2 v1; do
		N8N_E2E_LINE=$line run_layer "e2e-$line" npx jest --config jest.e2e.config.js
		# try-it (in the v2 pass) packs again: keep one tarball for the next pass
		[ "$(ls .tmp/pack/*.tgz | wc -l)" = 1 ] || { echo "expected one tarball in .tmp/pack" >&2; status=1; }
	done
	# the editor in a real headless Chromium (Debian's package), against the same n8n lines
	if ! command -v chromium >/dev/null; then
		step "chromium (Debian package)"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
	fi
	for line in v2 v1; do
		N8N_E2E_LINE=$line run_layer "browser-$line" npx jest --config jest.browser.config.js
	done
	if [ "${SKIP_QUEUE:-}" != "1" ]; then
		step "queue mode (main + 2 workers, PostgreSQL, Redis)"
		# writes .tmp/test-results/queue.json, counted below
		QUEUE_SKIP_BUILD=1 bash scripts/test-queue.sh || status=1
	fi
fi

node -e '
	const fs = require("fs");
	const dir = process.argv[1];
	let passed = 0, failed = 0;
	for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
		const r = JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8"));
		if (typeof r.numPassedTests !== "number") continue; // figures written beside the results (queue-lead-import.json)
		passed += r.numPassedTests; failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
	}
	console.log(`\n${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
' "$results" || status=1
exit $status
