#!/usr/bin/env bash
# Makes sure redis-server, etcd and ZooKeeper are installed, for the tests
# that run against real servers (cluster/redis, datasource/redis,
# datasource/etcd, datasource/zookeeper, internal/rulestore), and Java with
# curl for the tests against Java Sentinel, its token server, its dashboard
# and Nacos (../shared/nacos). Each of those tests
# starts its own server on 127.0.0.1 (free ports, temporary data) and stops
# it; this script only installs the Debian packages when a binary is missing,
# then stops the system services the packages may start, so that nothing but
# the tests' own servers listens. It also installs what the built-in page's
# browser test needs (console/browser_test.go): Debian's chromium, Node.js,
# and the pinned playwright-core of console/browsertest.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v etcd >/dev/null || need+=(etcd-server)
# datasource/zookeeper's tests run the server jar of Debian's zookeeperd.
[ -f /usr/share/java/zookeeper.jar ] || need+=(zookeeperd)
# The conformance tests build and run a Java Sentinel harness (conformance/java).
command -v java >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
# The real-dashboard test (transport/realdashboard_test.go) starts the Sentinel
# dashboard jar of ../shared/sentinel-dashboard with its start script, which
# polls it with curl.
command -v curl >/dev/null || need+=(curl)
command -v chromium >/dev/null || need+=(chromium)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)

if ((${#need[@]})); then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
	$sudo service redis-server stop >/dev/null 2>&1 || true
	$sudo service etcd stop >/dev/null 2>&1 || true
	$sudo service zookeeper stop >/dev/null 2>&1 || true
fi

# playwright-core as console/browsertest/package-lock.json pins it; it
# drives the chromium above and downloads no browser of its own.
if [ ! -f console/browsertest/node_modules/playwright-core/package.json ]; then
	(cd console/browsertest && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
