#!/usr/bin/env bash
# Verifies `bash scripts/try-it.sh` end to end through n8n's REST API: the nodes
# and the credential installed, the examples imported, the lead-import example
# run against the simulator, and Ctrl-C stopping everything (see
# verify-try-it.js). Exits non-zero with the failed check.
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/verify-try-it.js "$@"
