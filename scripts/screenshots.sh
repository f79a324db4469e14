#!/usr/bin/env bash
# Takes README's pictures (docs/images/*.jpg) anew: the browser layer in a real
# n8n 2.x writes them while it clicks through the editor (see test/browser/).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
npm run build
mkdir -p .tmp/pack docs/images && rm -f .tmp/pack/*.tgz
npm pack --pack-destination .tmp/pack >/dev/null
bash scripts/n8n-runtime/install.sh v2 >/dev/null
README_IMAGES="$(pwd)/docs/images" N8N_E2E_LINE=v2 npx jest --config jest.browser.config.js
ls -l docs/images
