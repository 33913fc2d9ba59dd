#!/usr/bin/env bash
# Runs every test of the repository: the one test command README.md gives and
# .ci/run calls.
#
#   ./scripts/test.sh              # everything
#   ./scripts/test.sh -count=1     # extra flags go to every go test run
#
# It installs the servers some tests need (scripts/servers.sh), then runs
# go test -race ./... in every Go module it finds (a directory with a go.mod,
# outside testdata, vendor, third_party, node_modules and hidden or _-prefixed
# directories, so a new nested module is tested without editing this file),
# and in the main module also the runtime with its go:linkname turned off and
# under GOARCH=386. A failure does not stop the run: every module is tested,
# the failures are listed at the end and the exit status is 1 if there was
# any, with each failing test named. The last line is "modules: N passed, N
# failed".
#
# Two runs go side by side: the main module's go test -race ./... in the
# foreground, and the other runs (the runtime's two variants, then each
# nested module in path order) one after another in the background, their
# output held in a file and shown, in order, once the main module is done.
# Much of a test run waits on servers, browsers and subprocesses, which the
# other run fills.
#
# go test runs with -json through scripts/testreport, which prints what plain
# go test prints, names every failing test, and says what is still running
# when nothing was printed for 20 s; long shell steps (installing servers)
# say so too. So no stretch of the run is silent.
set -uo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sentinelgen-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed_tests="$tmp/failed-tests" # one line per failing test (testreport)
failed_runs="$tmp/failed-runs"   # one line per failing go test run or step
module_results="$tmp/modules"    # "ok DIR" or "FAIL DIR", one line per module
touch "$failed_runs" "$module_results"

# heartbeat CMD...: runs CMD, printing a line every 20 s while it runs.
heartbeat() {
	local t=$SECONDS
	(while sleep 20; do echo "... still running: $* ($((SECONDS - t))s)"; done) &
	local beat=$!
	"$@"
	local code=$?
	kill "$beat" 2>/dev/null
	wait "$beat" 2>/dev/null
	return $code
}

# elapsed prints the seconds since $1 as 1m05s.
elapsed() {
	local s=$((SECONDS - $1))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# gotest runs go test with the given arguments in module directory $1,
# streaming its output, and records it as failed (returning 1) when it exits
# non-zero. An assignment before the call (GOARCH=386 gotest ...) reaches go.
gotest() {
	local dir=$1
	shift
	local t=$SECONDS
	local what="${GOARCH:+GOARCH=$GOARCH }go test $*"
	echo "--- $dir: $what"
	local code
	if [ -n "$report" ]; then
		(cd "$dir" && go test -json "$@" 2>&1) | "$report" -label "$dir" -failures "$failed_tests"
		code=$((PIPESTATUS[0] | PIPESTATUS[1]))
	else
		(cd "$dir" && go test "$@")
		code=$?
	fi
	if ((code == 0)); then
		echo "--- ok   $dir: $what ($(elapsed "$t"))"
		return 0
	fi
	echo "--- FAIL $dir: $what ($(elapsed "$t"))"
	echo "$dir: $what" >>"$failed_runs"
	return 1
}

# first_in DIR prints the packages of DIR (the main module only) whose
# tests take longest, so that go test, which starts packages in the order
# named, starts them first and the rest fill the time they wait; those that
# hold no Go files are left out.
first_in() {
	[ "$1" = . ] || return 0
	local p
	for p in ./transport ./cmd/sentinelgen ./annotate ./gen ./scripts ./internal/testscript ./conformance \
		./examples/orders/cmd/orders ./cmd/sentinelvet; do
		compgen -G "$p/*.go" >/dev/null && printf '%s\n' "$p"
	done
}

# module DIR [RUN...]: prints the module's heading and runs its go test runs
# (RUN: "race", "plain", "race-but-drills", "drills", "nolinkname" or "386";
# default race), recording the module's
# result in $module_results.
module() {
	local dir=$1 ok=1
	shift
	local path
	path=$(awk '$1 == "module" { print $2; exit }' "$dir/go.mod")
	echo
	echo "=== module $dir ($path)"
	for run in "${@:-race}"; do
		case $run in
		race) gotest "$dir" -race "${flags[@]}" $(first_in "$dir") ./... || ok=0 ;;
		# Without the race detector, for a module whose dependency races
		# by itself.
		plain) gotest "$dir" "${flags[@]}" ./... || ok=0 ;;
		# The runtime without its go:linkname to the Go runtime, and on a
		# 32-bit platform, where its plain 64-bit stores must not be used.
		# The fault drills of a module whose dependency races by itself when
		# it reconnects: every other test with the race detector, the drills
		# (named by $drills) without it.
		race-but-drills) gotest "$dir" -race -skip "$drills" "${flags[@]}" ./... || ok=0 ;;
		drills) gotest "$dir" -run "$drills" "${flags[@]}" ./... || ok=0 ;;
		nolinkname) gotest "$dir" -race -tags sentinel_nolinkname "${flags[@]}" ./runtime/... || ok=0 ;;
		386) GOARCH=386 gotest "$dir" "${flags[@]}" ./runtime/... || ok=0 ;;
		esac
	done
	if ((ok)); then
		echo "ok $dir" >>"$module_results"
	else
		echo "FAIL $dir" >>"$module_results"
	fi
}

# The reporter of go test -json; plain go test output if it does not build.
report="$tmp/testreport"
echo "=== building scripts/testreport"
if ! heartbeat go build -o "$report" ./scripts/testreport; then
	echo "--- scripts/testreport does not build: plain go test output, failing tests not listed"
	report=""
fi

echo "=== servers (scripts/servers.sh)"
if ! heartbeat ./scripts/servers.sh; then
	echo "--- FAIL scripts/servers.sh: the server-backed tests will skip or fail"
	echo "scripts/servers.sh" >>"$failed_runs"
fi
flags=("$@")

# The nested modules, in path order.
nested=()
while IFS= read -r mod; do
	dir=$(dirname "$mod")
	[ "$dir" = . ] || nested+=("$dir")
done < <(find . \( -name testdata -o -name vendor -o -name third_party -o -name node_modules \
	-o -name '.?*' -o -name '_*' \) -prune -o -name go.mod -type f -print | sort)

# The other runs, in the background.
others="$tmp/others.log"
(
	echo
	echo "=== the main module's other runs"
	gotest . -race -tags sentinel_nolinkname "${flags[@]}" ./runtime/... || echo "FAIL ." >>"$module_results"
	GOARCH=386 gotest . "${flags[@]}" ./runtime/... || echo "FAIL ." >>"$module_results"
	for dir in "${nested[@]}"; do
		case $dir in
		# nacos-sdk-go v2.3.2 has data races of its own (when it connects
		# and reconnects), which the race detector reports whatever the
		# tests do; its outage drills skip under -race.
		./datasource/nacos) module "$dir" plain ;;
		# go-zookeeper/zk v1.0.4 races by itself when it reconnects
		# (Conn.recvLoop against Conn.sendSetWatches), which the drills make
		# it do.
		./datasource/zookeeper)
			drills='^(TestServerStoppedAndRestarted|TestSessionExpiry|TestServerFrozen)$'
			module "$dir" race-but-drills drills
			;;
		*) module "$dir" ;;
		esac
	done
) >"$others" 2>&1 &
others_pid=$!

module .

echo
echo "=== the runs made alongside (held until the main module was done)"
tail -n +1 -f --pid="$others_pid" "$others"
wait "$others_pid"

echo
echo "=== summary ($(elapsed "$start"))"
sed 's/^/FAIL /' "$failed_runs"
if [ -s "$failed_tests" ]; then
	echo "failing tests and packages:"
	sed 's/^/  /' "$failed_tests"
fi
# A module failed if any of its runs did.
failed=$(awk '$1 == "FAIL" { print $2 }' "$module_results" | sort -u | wc -l)
passed=$(awk '$1 == "ok" { print $2 }' "$module_results" | sort -u | grep -vxFf <(awk '$1 == "FAIL" { print $2 }' "$module_results") | wc -l)
echo "modules: $passed passed, $failed failed"
[ ! -s "$failed_runs" ]
