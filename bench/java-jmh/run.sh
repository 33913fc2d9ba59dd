#!/usr/bin/env bash
# Builds and runs Java Sentinel's JMH benchmarks (SentinelBench: the Go
# peers' configuration, see ../config_test.go) and prints one line per
# benchmark in `go test -bench` format on stdout, so ../run.sh and
# ../cmd/benchtable read them with the Go results:
#
#   BenchmarkPass/java-sentinel   5   35.2 ns/op
#
# JMH's own output goes to stderr. ns/op is wall time per call over all
# threads (10^9 / JMH's throughput score), the figure Go's RunParallel reports.
#
# Usage: ./run.sh [--build-only | --no-build]
#
# Environment:
#   JMH_ARGS    JMH options (default: -wi 3 -i 5 -f 1 -w 1s -r 1s, a short run)
#   BENCH_LOAD  N busy threads of ../cmd/cpuhog alongside the run (loaded mode)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

mode="${1:-}"
case "$mode" in
"" | --build-only | --no-build) ;;
*)
	echo "usage: $0 [--build-only | --no-build]" >&2
	exit 2
	;;
esac

jar=target/benchmarks.jar
if [[ "$mode" != --no-build ]]; then
	mvn -q -B package -DskipTests >&2
fi
if [[ "$mode" == --build-only ]]; then
	exit 0
fi
if [[ ! -f "$jar" ]]; then
	echo "$jar missing: run $0 without --no-build first" >&2
	exit 1
fi

work="$(mktemp -d)"
hog_pid=""
cleanup() {
	if [[ -n "$hog_pid" ]]; then
		kill "$hog_pid" 2>/dev/null || true
		wait "$hog_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

if [[ -n "${BENCH_LOAD:-}" && "${BENCH_LOAD}" != 0 ]]; then
	hog="${BENCH_HOG_BIN:-}"
	if [[ -z "$hog" ]]; then
		hog="$work/cpuhog"
		(cd .. && go build -o "$hog" ./cmd/cpuhog)
	fi
	# The hog leaves by itself after -for, or when this script dies.
	"$hog" -n "$BENCH_LOAD" -for "${BENCH_LOAD_FOR:-30m}" -parent $$ &
	hog_pid=$!
	echo "loaded mode: cpuhog pid $hog_pid spinning $BENCH_LOAD busy thread(s)" >&2
fi

read -r -a jmh_args <<<"${JMH_ARGS:--wi 3 -i 5 -f 1 -w 1s -r 1s}"
LC_ALL=C java -Duser.language=en -jar "$jar" "${jmh_args[@]}" \
	-jvmArgsAppend "-Dcsp.sentinel.log.dir=$work/logs" \
	-rf csv -rff "$work/result.csv" SentinelBench >&2

# CSV columns: "Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit"
awk -F, 'NR > 1 {
	gsub(/["\r]/, "")
	n = split($1, parts, ".")
	method = parts[n]
	group = ""
	if (method == "pass1") group = "Pass"
	if (method == "block1") group = "Block"
	if (method == "passParallel") group = "PassParallel"
	if (method == "blockParallel") group = "BlockParallel"
	if (group == "" || $7 != "ops/s" || $5 <= 0) next
	printf "Benchmark%s/java-sentinel\t%d\t%.2f ns/op\n", group, $4, 1e9 / $5
}' "$work/result.csv"
