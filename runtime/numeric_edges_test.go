package runtime

import (
	"math"
	"strconv"
	"strings"
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

// A call at MaxAcquireCount counts exactly, and a 2-second call's
// response-time sum stays exact; a call over it is refused, never counted as
// less: under a count of 1.5*2^40, calls of 2^30 each must not all pass as
// calls of 2^20 would.
func TestAcquireCountOverTheCapIsRefused(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	e, be := r.Entry(t.Context(), AcquireCount(MaxAcquireCount))
	if be != nil {
		t.Fatal(be)
	}
	if s := r.Snapshot(); s.Pass != MaxAcquireCount {
		t.Fatalf("AcquireCount(MaxAcquireCount) counted %d passes, want %d", s.Pass, MaxAcquireCount)
	}
	clock.Advance(2 * time.Second)
	e.Exit()
	if s := r.Snapshot(); s.AvgRTMs != 2000 {
		t.Fatalf("average RT %v ms, want 2000", s.AvgRTMs)
	}
	if !strings.Contains(AcquireOverMaxRule, "("+strconv.Itoa(MaxAcquireCount)+")") {
		t.Fatalf("AcquireOverMaxRule %q does not name the cap %d", AcquireOverMaxRule, MaxAcquireCount)
	}

	limited := NewResource(uniqueName(t, "limited"))
	mustLoadFlow(t, FlowRule{Resource: limited.Name(), Grade: FlowGradeQPS, Count: 1.5 * (1 << 40)})
	passed := 0
	for range 3000 {
		e, be := limited.Entry(t.Context(), AcquireCount(1<<30))
		if be == nil {
			passed++
			e.Exit()
			continue
		}
		if be.Type() != BlockTypeFlow || be.Rule() != AcquireOverMaxRule || be.Resource() != limited.Name() {
			t.Fatalf("refusal %q: type %v rule %q resource %q", be.Error(), be.Type(), be.Rule(), be.Resource())
		}
	}
	if passed != 0 {
		t.Fatalf("%d calls of AcquireCount(1<<30) passed, want every one refused", passed)
	}
	if s := limited.Snapshot(); s.Pass != 0 || s.Block != 3000 {
		t.Fatalf("snapshot pass %d block %d, want 0 and 3000", s.Pass, s.Block)
	}
}
