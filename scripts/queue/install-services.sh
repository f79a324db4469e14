#!/usr/bin/env bash
# Installs Debian's PostgreSQL and Redis server packages when they are missing
# (non-interactively), without starting their system services: the queue-mode
# suite starts its own throw-away instances on loopback (scripts/queue/services.js).
# Idempotent; prints the two binaries it found last ("PG_BIN_DIR=... REDIS_SERVER=...").
set -euo pipefail

find_pg_bin() {
	# Debian keeps the server binaries out of PATH, one folder per major version
	ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | while read -r d; do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && echo "$d"
	done | tail -n 1
}
find_redis() { command -v redis-server 2>/dev/null || { [ -x /usr/bin/redis-server ] && echo /usr/bin/redis-server; } || true; }

need=()
[ -n "$(find_pg_bin)" ] || need+=(postgresql)
[ -n "$(find_redis)" ] || need+=(redis-server)

if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "missing ${need[*]}: run this script as root (it installs them with apt-get)" >&2
		exit 1
	fi
	echo "Installing ${need[*]} with apt-get" >&2
	# keep the packages' own services from starting (they would listen on the
	# default ports); a policy already in place (e.g. Docker's) is left alone
	policy=/usr/sbin/policy-rc.d
	created_policy=
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' > "$policy"
		chmod 755 "$policy"
		created_policy=1
	fi
	cleanup() { if [ -n "$created_policy" ]; then rm -f "$policy"; fi; }
	trap cleanup EXIT
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 || apt-get update >&2
	apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
		"${need[@]}" >&2
fi

pg=$(find_pg_bin)
redis=$(find_redis)
if [ -z "$pg" ] || [ -z "$redis" ]; then
	echo "PostgreSQL (${pg:-missing}) or redis-server (${redis:-missing}) still not found after installing" >&2
	exit 1
fi
echo "PG_BIN_DIR=$pg REDIS_SERVER=$redis"
