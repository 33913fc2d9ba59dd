package runtime

import (
	"context"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// inFlightPeak runs goroutines callers, each making calls attempts on r, and
// returns the most calls seen running at once and how many were admitted.
// A call counts as running from after its Entry returns to before its Exit,
// so the peak never exceeds what the runtime admitted.
func inFlightPeak(r *Resource, ctx context.Context, goroutines, calls int) (peak, admitted int64) {
	var running, top, passed atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range calls {
				e, be := r.Entry(ctx)
				if be != nil {
					goruntime.Gosched()
					continue
				}
				passed.Add(1)
				n := running.Add(1)
				for m := top.Load(); n > m && !top.CompareAndSwap(m, n); m = top.Load() {
				}
				goruntime.Gosched()
				running.Add(-1)
				e.Exit()
			}
		}()
	}
	close(start)
	wg.Wait()
	return top.Load(), passed.Load()
}

// A concurrency rule admits at most its count in flight, however many
// goroutines race for the last place: the check reserves the place before it
// compares, and gives it back when the call is refused.
func TestConcurrencyRuleNeverExceedsCount(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(8))
	// Three rounds: a race lost once in a while shows in one of them.
	for round := range 3 {
		r := NewResource(uniqueName(t, "exact"))
		mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 50})
		peak, admitted := inFlightPeak(r, context.Background(), 10000, 20)
		if peak > 50 {
			t.Fatalf("round %d: %d calls in flight at once under a concurrency rule of 50", round, peak)
		}
		if admitted < 50 {
			t.Fatalf("round %d: only %d calls admitted", round, admitted)
		}
		if c := r.Concurrency(); c != 0 {
			t.Fatalf("round %d: concurrency %d after every call exited", round, c)
		}
	}
}

// Per-origin and chain concurrency rules reserve on the origin's and the
// entrance's node, and are as exact.
func TestConcurrencyRuleExactPerOriginAndChain(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(8))
	r := NewResource(uniqueName(t, "exact-origin"))
	entrance := uniqueName(t, "exact-entrance")
	mustLoadFlow(t,
		FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 20, LimitApp: "app-a"},
		FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 30, Strategy: StrategyChain, RefResource: entrance},
	)
	ctx := context.Background()
	if peak, _ := inFlightPeak(r, WithOrigin(ctx, "app-a"), 5000, 10); peak > 20 {
		t.Fatalf("%d calls of origin app-a in flight under its rule of 20", peak)
	}
	if peak, _ := inFlightPeak(r, WithEntrance(ctx, entrance), 5000, 10); peak > 30 {
		t.Fatalf("%d calls through the entrance in flight under its rule of 30", peak)
	}
}

// A call refused by a later check, or by a second concurrency rule on the
// same node, gives back the place it reserved, and a call reserves once per
// node however many rules read it.
func TestConcurrencyReservationGivenBack(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "exact-back"))
	mustLoadFlow(t,
		FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 3},
		FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 2},
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 4},
	)
	held := func() int64 { return r.stats.held.Load().n.Load() }
	ctx := context.Background()
	e1, be1 := r.Entry(ctx)
	e2, be2 := r.Entry(ctx)
	if be1 != nil || be2 != nil {
		t.Fatalf("first two calls blocked: %v %v", be1, be2)
	}
	if h := held(); h != 2 {
		t.Fatalf("%d places held by two calls under two rules, want 2", h)
	}
	if _, be := r.Entry(ctx); be == nil {
		t.Fatal("third call passed a concurrency rule of 2")
	}
	if h := held(); h != 2 {
		t.Fatalf("%d places held after a refusal, want 2", h)
	}
	e1.Exit()
	e2.Exit()
	e1.Exit()
	if h := held(); h != 0 {
		t.Fatalf("%d places held after both exits, want 0", h)
	}
	// Two passes left in this second for the QPS rule: the fifth call is
	// refused by it after reserving, and gives its place back.
	for i := range 2 {
		e, be := r.Entry(ctx)
		if be != nil {
			t.Fatalf("call %d blocked: %v", i, be)
		}
		e.Exit()
	}
	if _, be := r.Entry(ctx); be == nil || !strings.Contains(be.Rule(), "QPS") {
		t.Fatalf("call over the QPS rule passed: %v", be)
	}
	if h := held(); h != 0 {
		t.Fatalf("%d places held after a refusal by the QPS rule, want 0", h)
	}
	clock.Advance(time.Second)
	e, be := r.Entry(ctx)
	if be != nil {
		t.Fatalf("call in a new second blocked: %v", be)
	}
	e.Exit()
}

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
