package runtime

import (
	"context"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// starvedClock returns a cached clock whose ticker never runs (the extreme
// of a starved ticker) and whose real time is the returned word, installed
// as the clock in force until the test ends.
func starvedClock(t *testing.T) (*coarseClock, *atomic.Int64) {
	t.Helper()
	var real atomic.Int64
	c := newCoarseClock(time.Millisecond, time.Second)
	c.source = real.Load
	c.noTicker = true
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
// whose ticker never runs. Before the audit the cache stayed at the first
// reading: every call fell in the first second and 1000 of the 10000
// allowed calls passed. Now the clock turns real within auditEvery calls
// per processor, so at most that many calls see a stale time and the rule
// passes its limit every second. Calls entered in place (Entry.InPlace, as
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
				if lag := real.Load() - e.startNs; lag > lateLimit*int64(time.Millisecond) {
					stale++
					maxStale = max(maxStale, lag)
				}
				e.Exit()
			}
			if min := limit * seconds * 995 / 1000; passed < min {
				t.Errorf("%d calls passed in %d s at %d QPS, want at least %d (99.5%%)", passed, seconds, limit, min)
			}
			if bound := auditEvery * max(stripe.Count(), 1); stale > bound {
				t.Errorf("%d passed calls saw a time more than %d ms old (worst %v), want at most %d", stale, lateLimit, time.Duration(maxStale), bound)
			}
			if s := c.state.Load(); s != tickerLagging {
				t.Errorf("state %d after the starved run, want tickerLagging (%d)", s, tickerLagging)
			}
		})
	}
}

// TestLateTickerTurnsReadsRealUntilOnTime drives the ticker's punctuality
// check by hand: a late tick turns reads real, recoverTicks on-time ticks
// turn them back to the cache, and an audit of a fresh cache changes
// nothing.
func TestLateTickerTurnsReadsRealUntilOnTime(t *testing.T) {
	c, real := starvedClock(t)
	c.Nanotime() // starts the clock (no ticker: noTicker)
	ms := int64(time.Millisecond)
	var ticks tickerTicks
	c.onTick(&ticks, ms)
	c.audit()
	if s := c.state.Load(); s != tickerRead {
		t.Fatalf("state %d after an on-time tick and audit, want tickerRead", s)
	}
	c.onTick(&ticks, (2+lateLimit)*ms) // lateLimit+1 ms after the last tick
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("state %d after a late tick, want tickerLagging", s)
	}
	real.Store(100 * ms)
	if got := c.Nanotime(); got != 100*ms {
		t.Fatalf("lagging read %v, want the real 100ms", time.Duration(got))
	}
	now := (2 + lateLimit) * ms
	for i := 1; i < recoverTicks; i++ {
		now += ms
		c.onTick(&ticks, now)
	}
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("state %d after %d on-time ticks, want still tickerLagging", s, recoverTicks-1)
	}
	c.onTick(&ticks, now+ms)
	if s := c.state.Load(); s != tickerRead {
		t.Fatalf("state %d after %d on-time ticks, want tickerRead", s, recoverTicks)
	}
}

// TestAuditsKeepLateTickerOnTime drives the ticker's judgement by hand
// when it wakes late, as it does while every processor is busy with calls:
// a late tick that finds an audit within the last tick leaves the cache in
// use; one that finds none turns reads real; and a lagging clock whose
// audits keep coming returns to the cache after recoverTicks such ticks.
func TestAuditsKeepLateTickerOnTime(t *testing.T) {
	c, real := starvedClock(t)
	c.Nanotime() // starts the clock (no ticker: noTicker)
	ms := int64(time.Millisecond)
	var ticks tickerTicks
	now := ms
	c.onTick(&ticks, now)
	// lateTick ticks 10 ticks after the last tick; when audit is true,
	// audits come every half tick in between, as from busy callers.
	lateTick := func(audit bool) {
		for a := now + ms/2; audit && a < now+10*ms; a += ms / 2 {
			real.Store(a)
			c.audit()
		}
		now += 10 * ms
		real.Store(now)
		c.onTick(&ticks, now)
	}
	for i := range 3 * recoverTicks {
		lateTick(true)
		if s := c.state.Load(); s != tickerRead {
			t.Fatalf("late tick %d after an audit: state %d, want tickerRead", i, s)
		}
	}
	lateTick(false)
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("late tick without an audit: state %d, want tickerLagging", s)
	}
	for i := 1; i < recoverTicks; i++ {
		lateTick(true)
	}
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("state %d after %d audited late ticks, want still tickerLagging", s, recoverTicks-1)
	}
	lateTick(true)
	if s := c.state.Load(); s != tickerRead {
		t.Fatalf("state %d after %d audited late ticks, want tickerRead", s, recoverTicks)
	}
	// An audit more than a tick old does not keep a late tick on time.
	for a := now + ms/2; a <= now+8*ms; a += ms / 2 {
		real.Store(a)
		c.audit()
	}
	now += 10 * ms
	real.Store(now)
	c.onTick(&ticks, now)
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("late tick 2 ticks after the last audit: state %d, want tickerLagging", s)
	}
	// That was a relapse, soon after the recovery: the next recovery takes
	// twice as many ticks.
	for i := 1; i < 2*recoverTicks; i++ {
		lateTick(true)
	}
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("state %d after %d audited late ticks following a relapse, want still tickerLagging", s, 2*recoverTicks-1)
	}
	lateTick(true)
	if s := c.state.Load(); s != tickerRead {
		t.Fatalf("state %d after %d audited late ticks following a relapse, want tickerRead", s, 2*recoverTicks)
	}
}

// TestRelapsesWaitLongerUpToTheCap checks tickerTicks.turnedLagging: each
// relapse soon after a recovery doubles the ticks the next recovery needs,
// up to maxRecoverTicks, and a clock that served from the cache for
// maxRecoverTicks ticks starts again from recoverTicks.
func TestRelapsesWaitLongerUpToTheCap(t *testing.T) {
	ticks := tickerTicks{need: recoverTicks, onTime: 7}
	ticks.turnedLagging() // the first time: not a relapse
	if ticks.need != recoverTicks || ticks.onTime != 0 {
		t.Fatalf("need %d, onTime %d after the first lag, want %d and 0", ticks.need, ticks.onTime, recoverTicks)
	}
	ticks.recovered = true
	want := recoverTicks
	for range 10 {
		ticks.readFor = 3
		ticks.turnedLagging()
		want = min(2*want, maxRecoverTicks)
		if ticks.need != want {
			t.Fatalf("need %d after a relapse, want %d", ticks.need, want)
		}
	}
	ticks.readFor = maxRecoverTicks
	ticks.turnedLagging()
	if ticks.need != recoverTicks {
		t.Fatalf("need %d after a lag following %d ticks on the cache, want %d", ticks.need, maxRecoverTicks, recoverTicks)
	}
}

// TestAuditTurningLaggingRestartsRecovery checks that a clock an audit
// turns lagging between two ticks does not return to the cache at the next
// tick on the strength of the ticks counted before: the count starts again,
// and after a recovery the turn is a relapse.
func TestAuditTurningLaggingRestartsRecovery(t *testing.T) {
	c, real := starvedClock(t)
	c.Nanotime() // starts the clock (no ticker: noTicker)
	ms := int64(time.Millisecond)
	var ticks tickerTicks
	now := int64(0)
	tick := func() { now += ms; real.Store(now); c.onTick(&ticks, now) }
	for range 3 * recoverTicks {
		tick()
	}
	// Recover once, so that the next turn is a relapse.
	c.state.Store(tickerLagging)
	for range recoverTicks + 1 {
		tick()
	}
	if s := c.state.Load(); s != tickerRead {
		t.Fatalf("state %d after %d punctual ticks, want tickerRead", s, recoverTicks+1)
	}
	// An audit finds the cache stale (real time jumped) and turns reads real.
	now += 10 * ms
	real.Store(now)
	c.audit()
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("state %d after an audit of a stale cache, want tickerLagging", s)
	}
	tick()
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("state %d at the tick after the audit's turn, want still tickerLagging", s)
	}
	for i := 2; i < 2*recoverTicks; i++ {
		tick()
	}
	if s := c.state.Load(); s != tickerLagging {
		t.Fatalf("state %d after %d punctual ticks following a relapse, want still tickerLagging", s, 2*recoverTicks-1)
	}
	tick()
	if s := c.state.Load(); s != tickerRead {
		t.Fatalf("state %d after %d punctual ticks following a relapse, want tickerRead", s, 2*recoverTicks)
	}
}

// TestStarvedSchedulerKeepsTimeFresh starves a real ticker: GOMAXPROCS=1,
// and the calling goroutine makes its calls in bursts of burstMs during
// which it cannot be preempted (pinned, as a goroutine in a long
// non-preemptible stretch is), so the ticker cannot run and the cache
// freezes for the burst. A QPS rule driven past its limit must pass at
// least 99.5% of its limit in each whole second, and each time the cache
// falls behind, at most auditEvery calls in a row may see a time more than
// lateLimit ms behind the monotonic clock (the clock's bound: the audit
// that comes within auditEvery calls brings it back). On a quiet machine
// that happens once; when the machine itself deschedules the process in
// mid-burst, once per pause. Before the safeguards every call late in a
// burst saw a stale time (about 80% of them, up to burstMs old).
func TestStarvedSchedulerKeepsTimeFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 3 s of real time")
	}
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	c := newCoarseClock(time.Millisecond, time.Second)
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
	// The clock's seconds fall on wall-clock seconds (see newCoarseClock),
	// so the run starts at the clock's next whole second: a partial first
	// second would pass only its share of the limit.
	start := (c.real()/int64(time.Second) + 1) * int64(time.Second)
	time.Sleep(time.Duration(start - c.real()))
	for c.real() < start {
		goruntime.Gosched()
	}
	for end := false; !end; {
		stripe.Pin()
		burstEnd := c.real() + burstMs*int64(time.Millisecond)
		for {
			before := c.real()
			if end = before >= start+seconds*int64(time.Second); end || before >= burstEnd {
				break
			}
			calls++
			f, _ := free.Entry(ctx)
			if lag := before - f.startNs; lag > lateLimit*int64(time.Millisecond) {
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
			passedIn[min((c.real()-start)/int64(time.Second), seconds-1)]++
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
	if longestRun > auditEvery {
		t.Errorf("%d calls in a row saw a time more than %d ms old (worst %v), want at most %d", longestRun, lateLimit, time.Duration(worst), auditEvery)
	}
	t.Logf("passed per second %v, %d of %d calls stale in %d runs, the longest %d (worst %v)", passedIn, stale, calls, episodes, longestRun, time.Duration(worst))
}
