package runtime

import (
	"context"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/coarseclock"
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

func TestManualClock(t *testing.T) {
	c := NewManualClock(5 * time.Second)
	if c.Nanotime() != int64(5*time.Second) {
		t.Fatalf("start %d", c.Nanotime())
	}
	c.Advance(time.Millisecond)
	c.Sleep(2 * time.Millisecond)
	if c.Now() != 5*time.Second+3*time.Millisecond {
		t.Fatalf("now %v, want 5.003s", c.Now())
	}
	if s := c.Sleeps(); len(s) != 1 || s[0] != 2*time.Millisecond {
		t.Fatalf("sleeps %v", s)
	}
	c.ResetSleeps()
	if len(c.Sleeps()) != 0 {
		t.Fatal("ResetSleeps kept sleeps")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Set backwards did not panic")
		}
	}()
	c.Set(time.Second)
}

func TestSetClockNilRestoresSystemClock(t *testing.T) {
	SetClock(NewManualClock(0))
	SetClock(nil)
	if CurrentClock() != Clock(systemClock) {
		t.Fatal("SetClock(nil) did not restore the system clock")
	}
}

// starvedClock returns a cached clock whose ticker never runs (the extreme
// of a starved ticker) and whose real time is the returned word, installed
// as the clock in force until the test ends.
func starvedClock(t *testing.T) (*coarseclock.Clock, *atomic.Int64) {
	t.Helper()
	var real atomic.Int64
	c := coarseclock.NewStarved(time.Millisecond, real.Load)
	SetClock(c)
	t.Cleanup(func() {
		SetClock(nil)
		if err := LoadRules(Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	})
	return c, &real
}

// TestStarvedTickerQPSHeldAtLimit drives a QPS rule at 5 times its limit
// for 10 seconds of a real time the test moves itself, on a cached clock
// whose ticker never runs. Without the audits the cache would stay at the
// first reading, every call would fall in the first second, and a tenth of
// the allowed calls would pass. The clock turns real within
// coarseclock.AuditEvery calls per processor, so at most that many calls
// see a stale time and the rule passes its limit every second. Calls entered in place (Entry.InPlace, as
// generated wrappers enter) take no exit ticket, whose sequence number
// times the audit of ticketed calls: they must be audited as often.
func TestStarvedTickerQPSHeldAtLimit(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		t.Run(map[bool]string{false: "Entry", true: "EntryTo in place"}[inPlace], func(t *testing.T) {
			c, real := starvedClock(t)
			name := uniqueName(t, "starved")
			r := NewResource(name)
			const limit, seconds, perSecond = 1000, 10, 5000
			mustLoadFlow(t, FlowRule{Resource: name, Grade: FlowGradeQPS, Count: limit})
			step := int64(time.Second) / perSecond
			ctx := context.Background()
			var passed, stale int
			maxStale := int64(0)
			for i := range seconds * perSecond {
				real.Store(int64(i) * step)
				var e Entry
				var be *BlockError
				if inPlace {
					be = r.EntryTo(e.InPlace(), ctx)
				} else {
					e, be = r.Entry(ctx)
				}
				if be != nil {
					continue
				}
				passed++
				if lag := real.Load() - e.startNs; lag > coarseclock.LateLimit*int64(time.Millisecond) {
					stale++
					maxStale = max(maxStale, lag)
				}
				e.Exit()
			}
			if min := limit * seconds * 995 / 1000; passed < min {
				t.Errorf("%d calls passed in %d s at %d QPS, want at least %d (99.5%%)", passed, seconds, limit, min)
			}
			if bound := coarseclock.AuditEvery * max(stripe.Count(), 1); stale > bound {
				t.Errorf("%d passed calls saw a time more than %d ms old (worst %v), want at most %d", stale, coarseclock.LateLimit, time.Duration(maxStale), bound)
			}
			if !c.Lagging() {
				t.Error("the clock is not lagging after the starved run")
			}
		})
	}
}

// TestStarvedSchedulerKeepsTimeFresh starves a real ticker: GOMAXPROCS=1,
// and the calling goroutine makes its calls in bursts of burstMs during
// which it cannot be preempted (pinned, as a goroutine in a long
// non-preemptible stretch is), so the ticker cannot run and the cache
// freezes for the burst. A QPS rule driven past its limit must pass at
// least 99.5% of its limit in each whole second, and each time the cache
// falls behind, at most coarseclock.AuditEvery calls in a row may see a time more than
// coarseclock.LateLimit ms behind the monotonic clock (the clock's bound: the audit
// that comes within coarseclock.AuditEvery calls brings it back). On a quiet machine
// that happens once; when the machine itself deschedules the process in
// mid-burst, once per pause. Without the safeguards every call late in a
// burst would see a time up to burstMs old.
func TestStarvedSchedulerKeepsTimeFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 3 s of real time")
	}
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	c := coarseclock.New(time.Millisecond, time.Second)
	SetClock(c)
	t.Cleanup(func() {
		SetClock(nil)
		_ = LoadRules(Rules{})
	})
	name := uniqueName(t, "busy")
	r := NewResource(name)
	// Calls that pass see the time anew when the cache moves into a window
	// with room; free, a resource with no rules, shows every call's time.
	free := NewResource(uniqueName(t, "free"))
	const limit, seconds, burstMs = 2000, 3, 20
	mustLoadFlow(t, FlowRule{Resource: name, Grade: FlowGradeQPS, Count: limit})
	ctx := context.Background()
	passedIn := make([]int, seconds)
	calls, stale := 0, 0
	run, longestRun, episodes := 0, 0, 0 // stale calls in a row
	worst := int64(0)
	c.Nanotime()
	// The clock's seconds fall on wall-clock seconds (see coarseclock.New),
	// so the run starts at the clock's next whole second: a partial first
	// second would pass only its share of the limit.
	start := (c.Real()/int64(time.Second) + 1) * int64(time.Second)
	time.Sleep(time.Duration(start - c.Real()))
	for c.Real() < start {
		goruntime.Gosched()
	}
	for end := false; !end; {
		stripe.Pin()
		burstEnd := c.Real() + burstMs*int64(time.Millisecond)
		for {
			before := c.Real()
			if end = before >= start+seconds*int64(time.Second); end || before >= burstEnd {
				break
			}
			calls++
			f, _ := free.Entry(ctx)
			if lag := before - f.startNs; lag > coarseclock.LateLimit*int64(time.Millisecond) {
				stale++
				worst = max(worst, lag)
				if run++; run == 1 {
					episodes++
				}
				longestRun = max(longestRun, run)
			} else {
				run = 0
			}
			f.Exit()
			e, be := r.Entry(ctx)
			if be != nil {
				continue
			}
			passedIn[min((c.Real()-start)/int64(time.Second), seconds-1)]++
			e.Exit()
		}
		stripe.Unpin()
		goruntime.Gosched() // the ticker may run here
	}
	for s, n := range passedIn {
		if n < limit*995/1000 {
			t.Errorf("second %d: %d passed, want at least %d of %d", s, n, limit*995/1000, limit)
		}
	}
	if longestRun > coarseclock.AuditEvery {
		t.Errorf("%d calls in a row saw a time more than %d ms old (worst %v), want at most %d", longestRun, coarseclock.LateLimit, time.Duration(worst), coarseclock.AuditEvery)
	}
	t.Logf("passed per second %v, %d of %d calls stale in %d runs, the longest %d (worst %v)", passedIn, stale, calls, episodes, longestRun, time.Duration(worst))
}
