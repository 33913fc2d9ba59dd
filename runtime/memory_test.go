package runtime

import (
	goruntime "runtime"
	"testing"
)

// An idle resource's memory must not grow with the core count: per-core
// stripes are claimed where a resource is written (see package leaparray),
// not when it is made. The bound is the goal, 1 KiB, checked at
// GOMAXPROCS 2 and 16 (the figures come from BenchmarkScaleIdleResource).
func TestIdleResourceMemoryDoesNotGrowWithCores(t *testing.T) {
	for _, procs := range []int{2, 16} {
		prev := goruntime.GOMAXPROCS(procs)
		const n = 2000
		names := scaleNames("idle-test", n)
		before := heapInUse()
		for _, name := range names {
			NewResource(name)
		}
		per := (heapInUse() - before) / n
		forgetResources(names)
		goruntime.GOMAXPROCS(prev)
		if per > 1024 {
			t.Errorf("GOMAXPROCS=%d: an idle resource allocates %d B, want at most 1024", procs, per)
		}
	}
}

// A resource with a QPS flow rule and a slow-ratio breaker, default
// windows, takes at most 1.5 KiB, rules included, at any GOMAXPROCS (the
// issue's goal; the figure at 100k resources comes from
// BenchmarkScaleResourcesWithRules). Per-processor slots that stay empty
// take a word each window and gauge (see package procslots). The registry's
// table is grown for the resources before the measure, as in the benchmark
// after its first run: it doubles at powers of two (two to four slots of
// 32 bytes per resource), and charging a doubling to whichever test
// crosses one would make the figure depend on the tests run before.
func TestRuledResourceMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 50k resources")
	}
	for _, procs := range []int{1, 2, 16} {
		prev := goruntime.GOMAXPROCS(procs)
		per := ruledResourceMemory(t, 50_000)
		goruntime.GOMAXPROCS(prev)
		if per > 1536 {
			t.Errorf("GOMAXPROCS=%d: a resource with a flow rule and a breaker takes %d B, want at most 1536", procs, per)
		}
		t.Logf("GOMAXPROCS=%d: %d B per resource", procs, per)
	}
}

// ruledResourceMemory is the heap each of n new resources with a QPS flow
// rule and a slow-ratio breaker takes; it clears them afterwards.
func ruledResourceMemory(t *testing.T, n int) uint64 {
	t.Helper()
	names := scaleNames("ruled-test", n)
	flow, degrade := scaleFlowRules(names), scaleDegradeRules(names)
	registry.Lock()
	registry.byName.reserve(n)
	registry.Unlock()
	before := heapInUse()
	for _, name := range names {
		NewResource(name)
	}
	if err := LoadRules(Rules{Flow: flow, Degrade: degrade}); err != nil {
		t.Fatal(err)
	}
	per := (heapInUse() - before) / uint64(n)
	if err := LoadRules(Rules{}); err != nil {
		t.Fatal(err)
	}
	forgetResources(names)
	return per
}
