#!/usr/bin/env bash
# Runs every test of the repository: the main module and each nested module.
#
# The cluster and etcd tests run against real servers: each test starts its
# own redis-server or etcd on 127.0.0.1 (free ports, temporary data) and stops
# it. This script installs the two Debian packages when the binaries are
# missing, then stops the system services the packages start, so that nothing
# but the tests' own servers listens.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v etcd >/dev/null || need+=(etcd-server)
if ((${#need[@]})); then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
	# The packages may start system-wide servers on the default ports; the
	# tests use their own.
	$sudo service redis-server stop >/dev/null 2>&1 || true
	$sudo service etcd stop >/dev/null 2>&1 || true
fi
# Tells the server-backed tests that a missing server is a failure, not a skip.
export SENTINELGEN_REQUIRE_SERVERS=1 CI="${CI:-true}"

go test -race ./...
for m in bench cluster/redis datasource/etcd; do
	[ -f "$m/go.mod" ] || continue
	(cd "$m" && go test -race ./...)
done
