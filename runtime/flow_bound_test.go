package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A limit far above the slack of the cached bounds (see
// leaparray.Window.FitsPinned), so that most checks of this test are
// answered from the cache: the per-second pass count must still be exactly
// the limit, as with a full sum.
func TestQPSRejectExactWithCachedBounds(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "cached"))
	const limit = 5000
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: limit})
	got := passesPerSecond(r, clock, 3, 2*limit)
	for s, n := range got {
		if n != limit {
			t.Fatalf("second %d: %d passed, want %d (all: %v)", s, n, limit, got)
		}
	}
}

// Concurrent callers at a high limit: the passes of one window reach the
// limit and exceed it by at most one call per other processor (a check
// racing with another processor's write), the bound of any check-then-add
// counter.
func TestQPSRejectConcurrentWithCachedBounds(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "cached-concurrent"))
	const limit, goroutines, tries = 3000, 8, 1000
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: limit})
	clock.Advance(100 * time.Millisecond) // inside one bucket for the whole test
	var passed atomic.Int64
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range tries {
				if ok, _ := call(r, clock, 0, nil); ok {
					passed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	n := passed.Load()
	if over := int64(goruntime.GOMAXPROCS(0) - 1); n < limit || n > limit+over {
		t.Fatalf("%d passes, want %d to %d", n, limit, limit+over)
	}
	if s := r.Snapshot(); s.Pass != n {
		t.Fatalf("snapshot counts %d passes, callers saw %d", s.Pass, n)
	}
}
