#!/usr/bin/env bash
# Runs n8n's own community-package scanner (@n8n/scan-community-package, pinned
# below) on the packed package, which is not published: its ESLint legs on the
# source (package.json, nodes/, credentials/) and on the tarball, with the
# scanner's own config and code (see scan-package.mjs). Also checks that the
# tarball declares no runtime dependencies and ships both icons.
#
#   bash scripts/scan-package.sh              # build, pack into .tmp/pack, scan
#   bash scripts/scan-package.sh some.tgz     # scan that tarball (no build)
#
# The scanner is installed once into a cache outside the repository. Exits
# non-zero on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
SCANNER_VERSION=0.32.0
cache=${N8N_RUNTIME_CACHE:-$HOME/.cache/n8n-nodes-voice-chat-assistant}
dir="$cache/scan-$SCANNER_VERSION"

if [ ! -f "$dir/.complete" ]; then
	echo "Installing @n8n/scan-community-package@$SCANNER_VERSION into $dir (once)" >&2
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/.scan-install-XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo '{ "name": "scan-runtime", "private": true, "version": "1.0.0" }' > "$tmp/package.json"
	# --ignore-scripts: eslint-plugin-n8n-nodes-base has a `preinstall: npx only-allow pnpm`
	# meant for its own repository, which fails a plain npm install.
	(cd "$tmp" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
		"@n8n/scan-community-package@$SCANNER_VERSION" >&2)
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT
	touch "$dir/.complete"
fi

if [ $# -ge 1 ]; then
	tarball=$1
else
	[ -d node_modules ] || npm install --no-audit --no-fund
	npm run build >/dev/null
	mkdir -p .tmp/pack && rm -f .tmp/pack/*.tgz
	npm pack --pack-destination .tmp/pack --loglevel=error >/dev/null
	tarball=$(ls .tmp/pack/*.tgz)
fi

exec node scripts/scan-package.mjs "$dir/node_modules/@n8n/scan-community-package" "$tarball"
