package runtime

import (
	"math"
	"testing"
	"time"
)

// An open breaker with the largest TimeWindowSec stays open: the retry time
// saturates instead of wrapping into the past (which let a probe through at
// once).
func TestHugeTimeWindowKeepsBreakerOpen(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	mustLoadDegrade(t, DegradeRule{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0,
		MinRequestAmount: 1, TimeWindowSec: math.MaxInt})
	if !failingCall(r, clock) {
		t.Fatal("first call blocked")
	}
	for _, after := range []time.Duration{0, time.Second, time.Hour, 1000 * time.Hour} {
		clock.Set(testStart + after)
		if ok, _ := call(r, clock, 0, nil); ok {
			t.Fatalf("%v after opening with TimeWindowSec MaxInt, a call went through", after)
		}
	}
}

// A rate limiter with the largest MaxQueueingTimeMs, the bound lifted,
// queues calls (its limit saturates) instead of blocking them (the limit
// wrapped negative).
func TestHugeMaxQueueingTimeQueues(t *testing.T) {
	defer SetMaxQueueingTime(SetMaxQueueingTime(math.MaxInt64))
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 10,
		ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: math.MaxInt})
	for i := range 3 {
		if ok, be := call(r, clock, 0, nil); !ok {
			t.Fatalf("call %d blocked (%v), want it queued", i, be)
		}
	}
	sleeps := clock.Sleeps()
	if len(sleeps) != 2 || sleeps[0] != 100*time.Millisecond {
		t.Fatalf("sleeps %v, want the 2nd and 3rd calls to wait 100 ms each", sleeps)
	}
}

// At the largest acquire count the counters stay exact: a QPS limit of 1536
// such calls admits exactly 1536 of 3000, and the average response time of
// 2-second calls reads 2000 ms.
func TestMaxAcquireCountKeepsCountersExact(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	const n = MaxAcquireCount
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1536 * n})
	passed := 0
	for range 3000 {
		if ok, _ := callCtx(t.Context(), r, clock, 0, nil, AcquireCount(n)); ok {
			passed++
		}
	}
	if passed != 1536 {
		t.Fatalf("%d calls of AcquireCount(%d) admitted, want 1536", passed, n)
	}
	if s := r.Snapshot(); s.Pass != 1536*n {
		t.Fatalf("pass count %d, want %d", s.Pass, int64(1536*n))
	}

	slow := NewResource(uniqueName(t, "slow"))
	clock.Advance(10 * time.Second)
	for range 4 {
		callCtx(t.Context(), slow, clock, 0, nil) // a few short calls first
	}
	e, be := slow.Entry(t.Context(), AcquireCount(n))
	if be != nil {
		t.Fatal(be)
	}
	clock.Advance(2 * time.Second)
	e.Exit()
	s := slow.Snapshot()
	if want := 2000.0 * n / (n + 4); math.Abs(s.AvgRTMs-want) > 0.01 {
		t.Fatalf("average RT %v ms, want %v", s.AvgRTMs, want)
	}
}

// AcquireCount caps its argument at MaxAcquireCount, and at the cap a
// 2-second call's response-time sum stays exact (it overflowed at 1<<30).
func TestAcquireCountIsCapped(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	e, be := r.Entry(t.Context(), AcquireCount(1<<30))
	if be != nil {
		t.Fatal(be)
	}
	if s := r.Snapshot(); s.Pass != MaxAcquireCount {
		t.Fatalf("AcquireCount(1<<30) counted %d passes, want MaxAcquireCount %d", s.Pass, MaxAcquireCount)
	}
	clock.Advance(2 * time.Second)
	e.Exit()
	if s := r.Snapshot(); s.AvgRTMs != 2000 {
		t.Fatalf("average RT %v ms, want 2000", s.AvgRTMs)
	}
}
