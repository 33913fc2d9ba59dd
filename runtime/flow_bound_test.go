package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
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
// limit and exceed it by at most the calls that can sit between their
// check and their add at once, less one, the bound of any check-then-add
// counter. Pinned (the default build), a call is not preempted between the
// two, so that is one per processor running a caller: min(GOMAXPROCS,
// goroutines). With -tags sentinel_nolinkname nothing pins, and a caller
// preempted between check and add lets every other goroutine check too: up
// to one per goroutine.
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
	inFlight := goroutines
	if stripe.Linked {
		inFlight = min(goruntime.GOMAXPROCS(0), goroutines)
	}
	if over := int64(inFlight - 1); n < limit || n > limit+over {
		t.Fatalf("%d passes, want %d to %d", n, limit, limit+over)
	}
	if s := r.Snapshot(); s.Pass != n {
		t.Fatalf("snapshot counts %d passes, callers saw %d", s.Pass, n)
	}
}
