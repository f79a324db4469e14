#!/usr/bin/env bash
# One command to try the package: install, build, start the simulator and a
# real n8n with the package installed as a community package, an owner
# account, a credential pointing at the simulator and the example workflows.
# Ctrl-C stops everything it started.
#
# Prints one line per step; the full output of npm, tsc and the n8n installer
# goes to .tmp/try-it/setup.log (its path and its end are printed on failure).
#   N8N_PORT=<port>  n8n's port (default 5678 when free, else a free one)
#   SIM_PORT=<port>  the simulator's port (default 4010 when free, else a free one)
#   TRY_IT_VERBOSE=1 everything on the terminal, as before
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp/try-it
log=.tmp/try-it/setup.log
: > "$log"

started=$SECONDS
# runs a step with its output in the log; on failure says where the log is and shows its end
step() {
	local what=$1; shift
	printf '  %-58s' "$what"
	local t=$SECONDS
	echo "==> $what: $*" >> "$log"
	local rc=0
	if [ "${TRY_IT_VERBOSE:-}" = 1 ]; then
		echo; if ! "$@" 2>&1 | tee -a "$log"; then rc=1; fi
	else
		if ! "$@" >> "$log" 2>&1; then rc=1; fi
	fi
	if [ "$rc" != 0 ]; then
		echo "failed"
		echo
		echo "The step \"$what\" failed. The end of its output:"
		tail -n 25 "$log" | sed 's/^/  | /'
		echo
		echo "Full output: $(pwd)/$log"
		exit "$rc"
	fi
	echo "done ($((SECONDS - t)) s)"
}

n8n_version=$(bash scripts/n8n-runtime/install.sh --version v2)
echo "Trying n8n-nodes-voice-chat-assistant in a real n8n $n8n_version (full output: $log)"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	step "Installing the project's dependencies (npm)" npm install --no-audit --no-fund
fi
step "Building the package" npm run build
mkdir -p .tmp/pack && rm -f .tmp/pack/*.tgz
step "Packing it as npm would publish it" npm pack --pack-destination .tmp/pack
if bash scripts/n8n-runtime/install.sh --installed v2; then
	step "n8n $n8n_version (cached)" bash scripts/n8n-runtime/install.sh v2
else
	echo "  First run: installing n8n $n8n_version and Node 24 into ${N8N_RUNTIME_CACHE:-~/.cache/n8n-nodes-voice-chat-assistant}"
	echo "  (3 to 6 minutes, once; later runs reuse it)"
	step "Installing n8n $n8n_version" bash scripts/n8n-runtime/install.sh v2
fi
echo "  Setup took $((SECONDS - started)) s"
exec node scripts/try-it.js "$@"
