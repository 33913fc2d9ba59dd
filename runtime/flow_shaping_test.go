package runtime

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"
)

// TestWarmUpRamp sends far more than Count each second to a cold resource:
// passes start near Count/ColdFactor and climb to Count within about the
// warm-up period, never falling back while the load lasts.
func TestWarmUpRamp(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "warm"))
	const count, period = 90, 10
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: count,
		ControlBehavior: BehaviorWarmUp, WarmUpPeriodSec: period})
	got := passesPerSecond(r, clock, 3*period, 300)
	t.Logf("passes per second: %v", got)
	// Cold start: the first second runs at about Count/ColdFactor.
	if first, want := float64(got[0]), float64(count)/DefaultColdFactor; math.Abs(first-want) > want*0.2 {
		t.Fatalf("first second %v passes, want about %v", first, want)
	}
	for s := 1; s < len(got); s++ {
		if got[s] < got[s-1]-count/10 {
			t.Fatalf("passes fell from %d to %d at second %d", got[s-1], got[s], s)
		}
	}
	// Warm: after twice the period the full rate applies.
	for s := 2 * period; s < len(got); s++ {
		if got[s] != count {
			t.Fatalf("second %d: %d passes, want %d once warm", s, got[s], count)
		}
	}
	if got[period/2] >= count {
		t.Fatalf("already at full rate half-way through the warm-up: %v", got)
	}
}

// TestWarmUpCoolsDownAfterQuiet: after a long quiet period the resource is
// cold again.
func TestWarmUpCoolsDownAfterQuiet(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "cool"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 60,
		ControlBehavior: BehaviorWarmUp, WarmUpPeriodSec: 5, ColdFactor: 4})
	warm := passesPerSecond(r, clock, 15, 200)
	if warm[14] != 60 {
		t.Fatalf("not warm after 15 s: %v", warm)
	}
	clock.Advance(time.Minute)
	cold := passesPerSecond(r, clock, 1, 200)
	if want := 60 / 4; math.Abs(float64(cold[0]-want)) > 3 {
		t.Fatalf("after a quiet minute %d passed, want about %d", cold[0], want)
	}
}

// TestRateLimiterPacesThroughClock: back-to-back calls each wait for their
// slot, 1000/Count ms apart, and the waits go through the clock.
func TestRateLimiterPacesThroughClock(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "paced"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 10,
		ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: 500})
	var times []time.Duration
	for range 5 {
		if ok, be := call(r, clock, 0, nil); !ok {
			t.Fatalf("paced call blocked: %v", be)
		}
		times = append(times, clock.Now())
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i] - times[i-1]; gap != 100*time.Millisecond {
			t.Fatalf("gap %d = %v, want 100ms (times %v)", i, gap, times)
		}
	}
	sleeps := clock.Sleeps()
	if len(sleeps) != 4 {
		t.Fatalf("sleeps %v, want four of 100ms", sleeps)
	}
	for _, d := range sleeps {
		if d != 100*time.Millisecond {
			t.Fatalf("sleeps %v, want four of 100ms", sleeps)
		}
	}
}

// frozenClock records sleeps without moving time, so a test can queue many
// callers at one instant, as concurrent callers arriving together would.
type frozenClock struct {
	now    int64
	mu     sync.Mutex
	sleeps []time.Duration
}

func (c *frozenClock) Nanotime() int64 { return c.now }
func (c *frozenClock) Sleep(d time.Duration) {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
}

// TestRateLimiterQueueBound: callers arriving at once are queued 100 ms
// apart up to MaxQueueingTimeMs; the rest are rejected at once.
func TestRateLimiterQueueBound(t *testing.T) {
	useManualClock(t)
	clock := &frozenClock{now: int64(testStart)}
	SetClock(clock)
	r := NewResource(uniqueName(t, "queue"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 10,
		ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: 450})
	passed := 0
	for range 10 {
		if e, be := r.Entry(context.Background()); be == nil {
			passed++
			e.Exit()
		}
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond, 400 * time.Millisecond}
	if passed != 1+len(want) {
		t.Fatalf("%d passed, want %d", passed, 1+len(want))
	}
	if len(clock.sleeps) != len(want) {
		t.Fatalf("sleeps %v, want %v", clock.sleeps, want)
	}
	for i := range want {
		if clock.sleeps[i] != want[i] {
			t.Fatalf("sleeps %v, want %v", clock.sleeps, want)
		}
	}
}

// TestRateLimiterWithoutQueueRejectsEarlyCalls: with no queueing allowed a
// call before its slot is rejected, one at its slot passes.
func TestRateLimiterWithoutQueue(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "noqueue"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 4,
		ControlBehavior: BehaviorRateLimiter})
	if ok, _ := call(r, clock, 0, nil); !ok {
		t.Fatal("first call blocked")
	}
	clock.Advance(249 * time.Millisecond)
	if ok, _ := call(r, clock, 0, nil); ok {
		t.Fatal("call 249 ms later passed; slots are 250 ms apart")
	}
	clock.Advance(time.Millisecond)
	if ok, _ := call(r, clock, 0, nil); !ok {
		t.Fatal("call at its slot blocked")
	}
	if s := clock.Sleeps(); len(s) != 0 {
		t.Fatalf("slept %v without a queue", s)
	}
}

// TestWarmUpRateLimiter: spacing starts at ColdFactor/Count and tightens to
// 1/Count once warm.
func TestWarmUpRateLimiter(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "warm-paced"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 20,
		ControlBehavior: BehaviorWarmUpRateLimiter, WarmUpPeriodSec: 5, MaxQueueingTimeMs: 1000})
	call(r, clock, 0, nil)
	clock.ResetSleeps()
	call(r, clock, 0, nil)
	if s := clock.Sleeps(); len(s) != 1 || s[0] != 150*time.Millisecond {
		t.Fatalf("cold spacing %v, want [150ms] (3/20 s)", s)
	}
	// Keep it busy for a while so it warms.
	for clock.Now() < testStart+20*time.Second {
		call(r, clock, 0, nil)
	}
	clock.ResetSleeps()
	call(r, clock, 0, nil)
	if s := clock.Sleeps(); len(s) != 1 || s[0] != 50*time.Millisecond {
		t.Fatalf("warm spacing %v, want [50ms] (1/20 s)", s)
	}
}

// TestPrioritizedBorrowsNextWindow: a prioritized call refused by a full
// window waits for the oldest bucket to expire and then counts in the new
// window, so an ordinary call there finds one unit less.
func TestPrioritizedBorrowsNextWindow(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "prio"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 5})
	ctx := context.Background()
	for range 5 {
		call(r, clock, 0, nil) // fill the [0, 500) bucket
	}
	clock.Set(testStart + 700*time.Millisecond)
	if ok, _ := call(r, clock, 0, nil); ok {
		t.Fatal("ordinary call passed a full window")
	}
	ok, be := callCtx(ctx, r, clock, 0, nil, Prioritized())
	if !ok {
		t.Fatalf("prioritized call blocked: %v", be)
	}
	if s := clock.Sleeps(); len(s) != 1 || s[0] != 300*time.Millisecond {
		t.Fatalf("prioritized call slept %v, want [300ms] until the oldest bucket expires", s)
	}
	if clock.Now() != testStart+time.Second {
		t.Fatalf("clock at %v after the wait", clock.Now()-testStart)
	}
	// The borrowed pass counts in the window it waited for: 4 more fit.
	passed := 0
	for range 10 {
		if ok, _ := call(r, clock, 0, nil); ok {
			passed++
		}
	}
	if passed != 4 {
		t.Fatalf("%d ordinary calls passed after the borrow, want 4", passed)
	}
}

// TestPrioritizedGivesUpBeyondTimeout: when no bucket expires within the
// occupy timeout the prioritized call is blocked like any other.
func TestPrioritizedGivesUpBeyondTimeout(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "prio-timeout"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 5})
	clock.Set(testStart + 600*time.Millisecond)
	for range 5 {
		call(r, clock, 0, nil) // fill the newest bucket: nothing frees up for 900 ms
	}
	if ok, _ := callCtx(context.Background(), r, clock, 0, nil, Prioritized()); ok {
		t.Fatal("prioritized call passed although nothing frees up within 500 ms")
	}
	if s := clock.Sleeps(); len(s) != 0 {
		t.Fatalf("slept %v before giving up", s)
	}
}
