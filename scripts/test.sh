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
# go test runs with -json through scripts/testreport, which prints what plain
# go test prints, names every failing test, and says what is still running
# when nothing was printed for 20 s; long shell steps (installing servers)
# say so too. So no stretch of the run is silent.
set -uo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
failures=()
passed=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sentinelgen-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed_tests="$tmp/failed-tests"

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
	failures+=("$dir: $what")
	return 1
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
	failures+=("scripts/servers.sh")
fi

# The main module first, then the nested modules in path order.
modules=(.)
while IFS= read -r mod; do
	dir=$(dirname "$mod")
	[ "$dir" = . ] || modules+=("$dir")
done < <(find . \( -name testdata -o -name vendor -o -name third_party -o -name node_modules \
	-o -name '.?*' -o -name '_*' \) -prune -o -name go.mod -type f -print | sort)

for dir in "${modules[@]}"; do
	path=$(awk '$1 == "module" { print $2; exit }' "$dir/go.mod")
	echo
	echo "=== module $dir ($path)"
	ok=1
	gotest "$dir" -race "$@" ./... || ok=0
	if [ "$dir" = . ]; then
		# The runtime without its go:linkname to the Go runtime, and on a
		# 32-bit platform, where its plain 64-bit stores must not be used.
		gotest "$dir" -race -tags sentinel_nolinkname "$@" ./runtime/... || ok=0
		GOARCH=386 gotest "$dir" "$@" ./runtime/... || ok=0
	fi
	if ((ok)); then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done

echo
echo "=== summary ($(elapsed "$start"))"
for f in "${failures[@]}"; do
	echo "FAIL $f"
done
if [ -s "$failed_tests" ]; then
	echo "failing tests and packages:"
	sed 's/^/  /' "$failed_tests"
fi
echo "modules: $passed passed, $failed failed"
((${#failures[@]} == 0))
