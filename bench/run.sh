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
#   BENCH_CPU     go test -cpu value (default 2: the parallel benchmarks on two
#                 cores, which the parallel-versus-serial goals are stated for)
#   BENCH_LOAD    N: loaded mode, N busy threads of cmd/cpuhog (a separate
#                 process) alongside every measurement; unset or 0: quiet
#   BENCH_JAVA    1 to add Java Sentinel's JMH figures (java-jmh/run.sh; needs
#                 Java 17 and Maven), once per round
#   JMH_ARGS      JMH options for java-jmh/run.sh
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
if [[ -n "${BENCH_LOAD:-}" && "${BENCH_LOAD}" != 0 ]]; then
	go build -o "$work/cpuhog" ./cmd/cpuhog
	export BENCH_LOAD BENCH_HOG_BIN="$work/cpuhog"
fi
java=0
if [[ "${BENCH_JAVA:-0}" == 1 ]]; then
	java=1
	java-jmh/run.sh --build-only
fi

# java_round appends one JMH run's figures to the raw output.
java_round() {
	if ((java)); then
		java-jmh/run.sh --no-build | tee -a "$raw" >&2
	fi
}

bench_args=(-test.run '^$' -test.bench "$filter" -test.benchmem -test.cpu "${BENCH_CPU:-2}")
if [[ -n "${BENCH_TIME:-}" ]]; then
	bench_args+=(-test.benchtime "$BENCH_TIME")
fi

# Raw output goes to stderr as it arrives, so a long run shows progress.
if [[ -n "${BENCH_ROUNDS:-}" ]]; then
	how="$BENCH_ROUNDS interleaved rounds of: go test ${bench_args[*]/#-test./-} -count 1"
	for ((round = 1; round <= BENCH_ROUNDS; round++)); do
		echo "round $round of $BENCH_ROUNDS" >&2
		"$work/bench.test" "${bench_args[@]}" -test.count 1 | tee -a "$raw" >&2
		java_round
	done
else
	count="${BENCH_COUNT:-5}"
	how="go test ${bench_args[*]/#-test./-} -count $count"
	"$work/bench.test" "${bench_args[@]}" -test.count "$count" | tee -a "$raw" >&2
	java_round
fi
if ((java)); then
	how="$how; then java-jmh/run.sh (JMH ${JMH_ARGS:--wi 3 -i 5 -f 1 -w 1s -r 1s}) after each"
fi

cpu_model="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "- Measured $(date -u '+%Y-%m-%d %H:%M UTC') with $(go version | cut -d' ' -f3-)"
echo "  on ${cpu_model:-unknown CPU} ($(nproc) cores visible, GOMAXPROCS ${BENCH_CPU:-2} from -cpu)."
echo "- Load average (1/5/15 min) at start: $load_start; at end: $(cut -d' ' -f1-3 /proc/loadavg)."
if [[ -n "${BENCH_LOAD:-}" && "${BENCH_LOAD}" != 0 ]]; then
	echo "- Loaded: cmd/cpuhog spinning $BENCH_LOAD busy thread(s) in a separate process during every measurement (BENCH_LOAD=$BENCH_LOAD)."
else
	echo "- Quiet: no CPU hog started (BENCH_LOAD unset)."
fi
echo "- sentinelgen tree: $(git describe --always --dirty 2>/dev/null || echo 'not a git checkout')."
echo "- Command: $how"
echo

strict=()
if [[ "${BENCH_STRICT:-0}" == 1 ]]; then
	strict=(-strict)
fi
"$work/benchtable" "${strict[@]}" <"$raw"
