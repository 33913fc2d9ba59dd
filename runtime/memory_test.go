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
