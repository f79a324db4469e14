#!/usr/bin/env bash
# The queue-mode end-to-end suite in one command: the pinned n8n 2.x
# (scripts/n8n-runtime/versions.json) as one main and
# two workers (EXECUTIONS_MODE=queue) with PostgreSQL and Redis, the packed
# package installed in each, against the simulator.
#
#   bash scripts/test-queue.sh            (as root on Debian: installs postgresql
#                                          and redis-server with apt-get if missing)
#   QUEUE_SKIP_BUILD=1 bash scripts/test-queue.sh   reuse dist/ and .tmp/pack
#
# Every process the suite starts is recorded in .tmp/queue-run/registry.jsonl
# and stopped on exit, also when the suite fails or is interrupted.
# Results: .tmp/test-results/queue.json (jest), queue-lead-import.txt (figures);
# the n8n logs of the last run: .tmp/queue-run/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
results="$root/.tmp/test-results"
mkdir -p "$results" "$root/.tmp/queue-run"
rm -f "$results/queue.json" "$results"/queue-lead-import.*
export QUEUE_REGISTRY_FILE="$root/.tmp/queue-run/registry.jsonl"

step() { printf '\n==> %s\n' "$*"; }
started=$(date +%s)

jest_pid=
cleanup() {
	local status=$?
	trap - EXIT INT TERM
	if [ -n "$jest_pid" ] && kill -0 "$jest_pid" 2>/dev/null; then
		kill -TERM "$jest_pid" 2>/dev/null || true
		for _ in $(seq 1 50); do kill -0 "$jest_pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$jest_pid" 2>/dev/null || true
	fi
	node scripts/queue/cleanup.js "$QUEUE_REGISTRY_FILE" || true
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# leftovers of an earlier run that was killed hard
node scripts/queue/cleanup.js "$QUEUE_REGISTRY_FILE"

step "PostgreSQL and Redis (Debian packages)"
services=$(bash scripts/queue/install-services.sh | tail -n 1)
QUEUE_PG_BIN_DIR=$(sed -n 's/.*PG_BIN_DIR=\([^ ]*\).*/\1/p' <<<"$services")
QUEUE_REDIS_SERVER=$(sed -n 's/.*REDIS_SERVER=\([^ ]*\).*/\1/p' <<<"$services")
export QUEUE_PG_BIN_DIR QUEUE_REDIS_SERVER
echo "postgres: $QUEUE_PG_BIN_DIR  redis: $QUEUE_REDIS_SERVER"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	step "npm install"
	npm install --no-audit --no-fund
fi

step "n8n runtime (cached in ${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant})"
bash scripts/n8n-runtime/install.sh v2

# N8N_PACKED_TARBALL (scripts/test.sh's own copy) is what the suite installs when set: the e2e
# layer's try-it may be packing .tmp/pack again meanwhile
if [ "${QUEUE_SKIP_BUILD:-}" = "1" ] && { [ -f "${N8N_PACKED_TARBALL:-}" ] || ls .tmp/pack/*.tgz >/dev/null 2>&1; }; then
	step "build and pack skipped (QUEUE_SKIP_BUILD=1)"
else
	step "build and pack"
	npm run build
	mkdir -p .tmp/pack && rm -f .tmp/pack/*.tgz
	npm pack --pack-destination .tmp/pack >/dev/null
fi

step "queue-mode tests"
status=0
node node_modules/jest/bin/jest.js --config jest.queue.config.js --json --outputFile="$results/queue.json" &
jest_pid=$!
wait "$jest_pid" || status=$?
jest_pid=

node -e '
	const fs = require("fs");
	const [file, figures] = process.argv.slice(1);
	if (!fs.existsSync(file)) { console.log("queue layer: no results (the run failed before jest wrote them)"); process.exit(1); }
	const r = require(file);
	console.log(`queue layer: ${r.numPassedTests} passed, ${r.numFailedTests} failed (${r.numTotalTests} tests)`);
	if (fs.existsSync(figures)) process.stdout.write(`lead-import figures:\n${fs.readFileSync(figures, "utf8")}`);
	process.exit(r.numFailedTests || r.numRuntimeErrorTestSuites ? 1 : 0);
' "$results/queue.json" "$results/queue-lead-import.txt" || status=1
echo "wall time: $(( $(date +%s) - started )) s"
exit $status
