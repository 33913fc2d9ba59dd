// Package bench compares the cost of one guarded call in sentinelgen's runtime
// with the same protection built from other Go libraries: Alibaba's
// sentinel-golang, failsafe-go, and sony/gobreaker combined with
// golang.org/x/time/rate.
//
// Everything lives in test files: the benchmarks (bench_test.go), one adapter
// per library that builds the equivalent configuration and performs one call
// (peer_*_test.go), and TestPeersAgree, which checks that every adapter passes
// and blocks where it should so that the benchmark numbers measure the intended
// path. rotate_test.go is the rotating A/B harness, which compares this
// tree's pass path with the no-API floor (internal/floor) and with copies of
// other commits (abcopy.sh) in one binary. run.sh runs the benchmarks and prints the comparison table; see
// README.md. With BENCH_LOAD=N, TestMain runs everything alongside cmd/cpuhog,
// a separate process keeping N threads busy (internal/cpuload), so that the
// figures can be taken on a loaded machine; java-jmh holds the optional Java
// Sentinel comparison.
package bench
