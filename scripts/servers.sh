#!/usr/bin/env bash
# Makes sure redis-server and etcd are installed, for the tests that run
# against real servers (cluster/redis, datasource/etcd). Each of those tests
# starts its own server on 127.0.0.1 (free ports, temporary data) and stops
# it; this script only installs the Debian packages when a binary is missing,
# then stops the system services the packages may start, so that nothing but
# the tests' own servers listens.
set -euo pipefail

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v etcd >/dev/null || need+=(etcd-server)
# The conformance tests build and run a Java Sentinel harness (conformance/java).
command -v java >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
((${#need[@]})) || exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
$sudo service redis-server stop >/dev/null 2>&1 || true
$sudo service etcd stop >/dev/null 2>&1 || true
