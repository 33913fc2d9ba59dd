package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestNoRulesAlwaysPasses(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "free"))
	for range 1000 {
		if ok, be := call(r, clock, time.Millisecond, nil); !ok {
			t.Fatalf("blocked without rules: %v", be)
		}
	}
}

func TestNewResourceReturnsSameHandle(t *testing.T) {
	name := uniqueName(t, "same")
	a := NewResource(name, WithTrafficType(TrafficInbound), WithResourceType(ResourceTypeWeb))
	b := NewResource(name, WithResourceType(ResourceTypeDB))
	if a != b {
		t.Fatal("second NewResource returned another handle")
	}
	if a.Name() != name || a.TrafficType() != TrafficInbound || a.ResourceType() != ResourceTypeWeb {
		t.Fatalf("resource %q traffic %v type %v", a.Name(), a.TrafficType(), a.ResourceType())
	}
	found := false
	for _, r := range Resources() {
		found = found || r == a
	}
	if !found {
		t.Fatal("Resources does not list the resource")
	}
}

func TestQPSRejectUniformLoad(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "uniform"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 10})
	got := passesPerSecond(r, clock, 5, 20)
	for s, n := range got {
		if n != 10 {
			t.Fatalf("second %d: %d passed, want 10 (all: %v)", s, n, got)
		}
	}
}

func TestQPSRejectBurstyLoad(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "bursty"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 7})
	for s := range 4 {
		passed := 0
		for range 50 { // a burst at the top of each second
			if ok, _ := call(r, clock, 0, nil); ok {
				passed++
			}
		}
		if passed != 7 {
			t.Fatalf("burst %d: %d passed, want 7", s, passed)
		}
		clock.Advance(time.Second)
	}
}

// TestWindowBoundaryBurst shows the sliding window at work: a burst at the
// end of one second and another at the start of the next fall into the same
// window, so the second burst is refused until the first burst's bucket
// expires, half a second later. A fixed one-second window would let both
// through, twice the limit within 100 ms.
func TestWindowBoundaryBurst(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "boundary"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 10})
	burst := func() int {
		n := 0
		for range 10 {
			if ok, _ := call(r, clock, 0, nil); ok {
				n++
			}
		}
		return n
	}
	clock.Set(testStart + 900*time.Millisecond)
	if n := burst(); n != 10 {
		t.Fatalf("first burst: %d passed, want 10", n)
	}
	clock.Set(testStart + 1000*time.Millisecond)
	if n := burst(); n != 0 {
		t.Fatalf("burst 100 ms later: %d passed, want 0", n)
	}
	clock.Set(testStart + 1499*time.Millisecond)
	if n := burst(); n != 0 {
		t.Fatalf("burst at 1499 ms: %d passed, want 0", n)
	}
	clock.Set(testStart + 1500*time.Millisecond)
	if n := burst(); n != 10 {
		t.Fatalf("burst after the first bucket expired: %d passed, want 10", n)
	}
}

func TestQPSFractionalAndZeroCount(t *testing.T) {
	clock := useManualClock(t)
	zero := NewResource(uniqueName(t, "zero"))
	half := NewResource(uniqueName(t, "half"))
	mustLoadFlow(t,
		FlowRule{Resource: zero.Name(), Grade: FlowGradeQPS, Count: 0},
		FlowRule{Resource: half.Name(), Grade: FlowGradeQPS, Count: 1.5},
	)
	if ok, _ := call(zero, clock, 0, nil); ok {
		t.Fatal("Count 0 let a call through")
	}
	passed := 0
	for range 5 {
		if ok, _ := call(half, clock, 0, nil); ok {
			passed++
		}
	}
	if passed != 1 {
		t.Fatalf("Count 1.5: %d passed, want 1", passed)
	}
}

func TestAcquireCount(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "batch"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 10})
	ctx := context.Background()
	if ok, _ := callCtx(ctx, r, clock, 0, nil, AcquireCount(6)); !ok {
		t.Fatal("first batch of 6 blocked")
	}
	if ok, _ := callCtx(ctx, r, clock, 0, nil, AcquireCount(5)); ok {
		t.Fatal("batch of 5 passed with 4 left")
	}
	if ok, _ := callCtx(ctx, r, clock, 0, nil, AcquireCount(4)); !ok {
		t.Fatal("batch of 4 blocked with 4 left")
	}
	if s := r.Snapshot(); s.Pass != 10 || s.Block != 5 {
		t.Fatalf("snapshot pass %d block %d, want 10 and 5", s.Pass, s.Block)
	}
}

func TestConcurrencyGrade(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "inflight"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 2})
	ctx := context.Background()
	e1, be1 := r.Entry(ctx)
	e2, be2 := r.Entry(ctx)
	if be1 != nil || be2 != nil {
		t.Fatalf("first two calls blocked: %v %v", be1, be2)
	}
	if _, be := r.Entry(ctx); be == nil {
		t.Fatal("third concurrent call passed")
	}
	if got := r.Snapshot().Concurrency; got != 2 {
		t.Fatalf("concurrency %d, want 2", got)
	}
	e1.Exit()
	e1.Exit() // a second Exit must not release another slot
	e3, be3 := r.Entry(ctx)
	if be3 != nil {
		t.Fatalf("call after an exit blocked: %v", be3)
	}
	if _, be := r.Entry(ctx); be == nil {
		t.Fatal("call passed although two are in flight after a double Exit")
	}
	e2.Exit()
	e3.Exit()
	clock.Advance(time.Second)
	if got := r.Snapshot().Concurrency; got != 0 {
		t.Fatalf("concurrency after exits %d, want 0", got)
	}
}

func TestBlockError(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "blocked"))
	mustLoadFlow(t,
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100},
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 0},
	)
	_, be := call(r, clock, 0, nil)
	if be == nil {
		t.Fatal("not blocked")
	}
	var err error = be
	if !errors.Is(err, ErrBlocked) {
		t.Fatal("errors.Is(be, ErrBlocked) is false")
	}
	if be.Type() != BlockTypeFlow || be.Resource() != r.Name() {
		t.Fatalf("type %v resource %q", be.Type(), be.Resource())
	}
	for _, want := range []string{r.Name(), "flow rule #1", "QPS 0"} {
		if !strings.Contains(be.Error(), want) {
			t.Errorf("error %q does not mention %q", be.Error(), want)
		}
	}
	_, again := call(r, clock, 0, nil)
	if again != be {
		t.Fatal("the same rule returned a different *BlockError")
	}
}

func TestRulesInLoadOrderFirstBlockWins(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "order"))
	other := NewResource(uniqueName(t, "order-other"))
	mustLoadFlow(t,
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1},
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1},
		FlowRule{Resource: other.Name(), Grade: FlowGradeQPS, Count: 5},
		FlowRule{Resource: other.Name(), Grade: FlowGradeQPS, Count: 1},
	)
	call(r, clock, 0, nil)
	_, be := call(r, clock, 0, nil)
	if be == nil || !strings.Contains(be.Rule(), "#0") {
		t.Fatalf("blocked by %v, want rule #0: both rules block and the first loaded wins", be)
	}
	call(other, clock, 0, nil)
	_, be = call(other, clock, 0, nil)
	if be == nil || !strings.Contains(be.Rule(), "#3") {
		t.Fatalf("blocked by %v, want rule #3, the only one over its limit", be)
	}
}

func TestRulesApplyToResourcesCreatedLater(t *testing.T) {
	clock := useManualClock(t)
	name := uniqueName(t, "later")
	mustLoadFlow(t, FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1})
	r := NewResource(name)
	call(r, clock, 0, nil)
	if ok, _ := call(r, clock, 0, nil); ok {
		t.Fatal("rule loaded before NewResource did not apply")
	}
}

func TestStatIntervalOfFlowRule(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "interval"))
	// 10 per second measured over 2 s: 20 calls fit in the 2 s window.
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 10, StatIntervalMs: 2000})
	passed := 0
	for range 30 {
		if ok, _ := call(r, clock, 0, nil); ok {
			passed++
		}
	}
	if passed != 20 {
		t.Fatalf("%d passed in a burst, want 20", passed)
	}
	clock.Advance(time.Second)
	if ok, _ := call(r, clock, 0, nil); ok {
		t.Fatal("passed one second later although the 2 s window is full")
	}
	clock.Advance(time.Second)
	if ok, _ := call(r, clock, 0, nil); !ok {
		t.Fatal("blocked two seconds later")
	}
}
