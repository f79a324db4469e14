#!/usr/bin/env bash
# One command to try the package: install, build, start the simulator and a
# real n8n with the package installed as a community package, an owner
# account, a credential pointing at the simulator and the example workflows.
# Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	npm install --no-audit --no-fund
fi
npm run build
mkdir -p .tmp/pack && rm -f .tmp/pack/*.tgz
npm pack --pack-destination .tmp/pack >/dev/null
bash scripts/n8n-runtime/install.sh v2 >/dev/null
exec node scripts/try-it.js "$@"
