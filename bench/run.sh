#!/usr/bin/env bash
# Runs the comparison benchmarks and prints a markdown report: machine
# details, one table per benchmark group (medians, each library's time as a
# multiple of sentinelgen's) and the goal checks from the runtime issue.
#
# By default every benchmark runs in one `go test -bench . -count N` process.
# On a machine whose load changes during the run, BENCH_ROUNDS=N instead runs
# the whole suite N times, one sample of every benchmark per round, so a busy
# minute slows all libraries alike instead of only the ones measured then.
#
# Environment:
#   BENCH_COUNT   repetitions per benchmark in one process (default 5)
#   BENCH_ROUNDS  if set, run this many interleaved rounds of -count 1 instead
#   BENCH_TIME    go test -benchtime value (default: go test's own, 1s)
#   BENCH_FILTER  -bench regexp (default: . for all)
#   BENCH_RAW     file to keep the raw go test output in (default: temp, removed)
#   BENCH_STRICT  1 to exit non-zero when a goal is missed
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

filter="${BENCH_FILTER:-.}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
raw="${BENCH_RAW:-$work/raw.txt}"
: >"$raw"
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"

# Build both tools before measuring so compilation never overlaps a run.
go build -o "$work/benchtable" ./cmd/benchtable
go test -c -o "$work/bench.test" .

bench_args=(-test.run '^$' -test.bench "$filter" -test.benchmem)
if [[ -n "${BENCH_TIME:-}" ]]; then
	bench_args+=(-test.benchtime "$BENCH_TIME")
fi

# Raw output goes to stderr as it arrives, so a long run shows progress.
if [[ -n "${BENCH_ROUNDS:-}" ]]; then
	how="$BENCH_ROUNDS interleaved rounds of: go test ${bench_args[*]/#-test./-} -count 1"
	for ((round = 1; round <= BENCH_ROUNDS; round++)); do
		echo "round $round of $BENCH_ROUNDS" >&2
		"$work/bench.test" "${bench_args[@]}" -test.count 1 | tee -a "$raw" >&2
	done
else
	count="${BENCH_COUNT:-5}"
	how="go test ${bench_args[*]/#-test./-} -count $count"
	"$work/bench.test" "${bench_args[@]}" -test.count "$count" | tee -a "$raw" >&2
fi

cpu_model="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "- Measured $(date -u '+%Y-%m-%d %H:%M UTC') with $(go version | cut -d' ' -f3-)"
echo "  on ${cpu_model:-unknown CPU} ($(nproc) cores visible, GOMAXPROCS ${GOMAXPROCS:-unset, so one per core})."
echo "- Load average (1/5/15 min) at start: $load_start; at end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "- sentinelgen tree: $(git describe --always --dirty 2>/dev/null || echo 'not a git checkout')."
echo "- Command: $how"
echo

strict=()
if [[ "${BENCH_STRICT:-0}" == 1 ]]; then
	strict=(-strict)
fi
"$work/benchtable" "${strict[@]}" <"$raw"
