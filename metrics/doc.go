// Package metrics keeps a ring of per-second, per-resource statistics read
// from the runtime's own counters: what Sentinel's dashboard charts (the
// transport's metric and clusterNode commands) and what Prometheus counters
// need (totals since start).
//
// A Sampler adds nothing to the pass path. The runtime already counts every
// resource's passes, blocks, completions, traced errors and response times
// in a second-level window of two 500 ms buckets; the Sampler reads each
// bucket once it has ended, from its own goroutine, and files the pair that
// makes a second under the wall-clock second it covers. A bucket's slot is
// reused one bucket after it ends, so the Sampler wakes just after every
// bucket boundary (twice a second). If it is starved past that, the words
// already reused are known to be reused (their tags name a later bucket):
// the second is kept with what could still be read and marked Partial,
// never filled in.
//
// The runtime's default clock starts on a wall-clock second boundary, so
// its seconds are the wall clock's; with another Clock (a test's
// ManualClock) Config.WallMs says what wall time it stands for.
package metrics
