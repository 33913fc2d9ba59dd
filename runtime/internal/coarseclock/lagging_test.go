package coarseclock

import (
	"sync/atomic"
	"testing"
	"time"
)

// starvedClock returns a clock whose ticker never runs (the extreme of a
// starved ticker) and whose real time is the returned word.
func starvedClock(t *testing.T) (*Clock, *atomic.Int64) {
	t.Helper()
	var real atomic.Int64
	return NewStarved(time.Millisecond, real.Load), &real
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
	c.Audit()
	if s := c.state.Load(); s != stateRead {
		t.Fatalf("state %d after an on-time tick and audit, want stateRead", s)
	}
	c.onTick(&ticks, (2+LateLimit)*ms) // LateLimit+1 ms after the last tick
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("state %d after a late tick, want stateLagging", s)
	}
	real.Store(100 * ms)
	if got := c.Nanotime(); got != 100*ms {
		t.Fatalf("lagging read %v, want the real 100ms", time.Duration(got))
	}
	now := (2 + LateLimit) * ms
	for i := 1; i < recoverTicks; i++ {
		now += ms
		c.onTick(&ticks, now)
	}
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("state %d after %d on-time ticks, want still stateLagging", s, recoverTicks-1)
	}
	c.onTick(&ticks, now+ms)
	if s := c.state.Load(); s != stateRead {
		t.Fatalf("state %d after %d on-time ticks, want stateRead", s, recoverTicks)
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
	// audits come in between, the last half a tick before it, but a tick
	// and a half apart, too far apart to turn a lagging clock back by
	// themselves (TestFrequentAuditsTurnALaggingClockBack).
	lateTick := func(audit bool) {
		for a := now + ms/2; audit && a < now+10*ms; a += 3 * ms / 2 {
			real.Store(a)
			c.Audit()
		}
		now += 10 * ms
		real.Store(now)
		c.onTick(&ticks, now)
	}
	for i := range 3 * recoverTicks {
		lateTick(true)
		if s := c.state.Load(); s != stateRead {
			t.Fatalf("late tick %d after an audit: state %d, want stateRead", i, s)
		}
	}
	lateTick(false)
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("late tick without an audit: state %d, want stateLagging", s)
	}
	for i := 1; i < recoverTicks; i++ {
		lateTick(true)
	}
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("state %d after %d audited late ticks, want still stateLagging", s, recoverTicks-1)
	}
	lateTick(true)
	if s := c.state.Load(); s != stateRead {
		t.Fatalf("state %d after %d audited late ticks, want stateRead", s, recoverTicks)
	}
	// An audit more than a tick old does not keep a late tick on time.
	for a := now + ms/2; a <= now+8*ms; a += ms / 2 {
		real.Store(a)
		c.Audit()
	}
	now += 10 * ms
	real.Store(now)
	c.onTick(&ticks, now)
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("late tick 2 ticks after the last audit: state %d, want stateLagging", s)
	}
	// That was a relapse, soon after the recovery: the next recovery takes
	// twice as many ticks.
	for i := 1; i < 2*recoverTicks; i++ {
		lateTick(true)
	}
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("state %d after %d audited late ticks following a relapse, want still stateLagging", s, 2*recoverTicks-1)
	}
	lateTick(true)
	if s := c.state.Load(); s != stateRead {
		t.Fatalf("state %d after %d audited late ticks following a relapse, want stateRead", s, 2*recoverTicks)
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
	c.state.Store(stateLagging)
	for range recoverTicks + 1 {
		tick()
	}
	if s := c.state.Load(); s != stateRead {
		t.Fatalf("state %d after %d punctual ticks, want stateRead", s, recoverTicks+1)
	}
	// An audit finds the cache stale (real time jumped) and turns reads real.
	now += 10 * ms
	real.Store(now)
	c.Audit()
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("state %d after an audit of a stale cache, want stateLagging", s)
	}
	tick()
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("state %d at the tick after the audit's turn, want still stateLagging", s)
	}
	for i := 2; i < 2*recoverTicks; i++ {
		tick()
	}
	if s := c.state.Load(); s != stateLagging {
		t.Fatalf("state %d after %d punctual ticks following a relapse, want still stateLagging", s, 2*recoverTicks-1)
	}
	tick()
	if s := c.state.Load(); s != stateRead {
		t.Fatalf("state %d after %d punctual ticks following a relapse, want stateRead", s, 2*recoverTicks)
	}
}

// TestFrequentAuditsTurnALaggingClockBack: with the ticker starved (every
// processor busy with calls), recoverAudits audits in a row, each within a
// tick of the one before, turn a lagging clock back to the cache; one audit
// a tick late starts the count again; and a relapse needs no more of them.
func TestFrequentAuditsTurnALaggingClockBack(t *testing.T) {
	c, real := starvedClock(t)
	c.Nanotime() // starts the clock (no ticker: noTicker)
	ms := int64(time.Millisecond)
	var ticks tickerTicks
	now := ms
	c.onTick(&ticks, now)
	lag := func() {
		now += (LateLimit + 2) * ms
		real.Store(now)
		c.onTick(&ticks, now) // late, and no audit within the last tick
		if s := c.state.Load(); s != stateLagging {
			t.Fatalf("state %d after a late tick without audits, want stateLagging", s)
		}
	}
	// audits audits every half tick and reports the state after them.
	audits := func(n int) uint32 {
		for range n {
			now += ms / 2
			real.Store(now)
			c.Audit()
		}
		return c.state.Load()
	}
	for relapse := range 3 {
		lag()
		if s := audits(recoverAudits - 1); s != stateLagging {
			t.Fatalf("relapse %d: state %d after %d frequent audits, want still stateLagging", relapse, s, recoverAudits-1)
		}
		now += 2 * ms // a gap of more than a tick: its audit starts the count again
		if s := audits(recoverAudits); s != stateLagging {
			t.Fatalf("relapse %d: state %d after a gap and %d audits, want still stateLagging", relapse, s, recoverAudits)
		}
		if s := audits(1); s != stateRead {
			t.Fatalf("relapse %d: state %d after %d frequent audits in a row, want stateRead", relapse, s, recoverAudits)
		}
		if got := c.Nanotime(); got != now {
			t.Fatalf("relapse %d: the cache reads %v after the recovery, want the last audit's %v", relapse, time.Duration(got), time.Duration(now))
		}
		now += ms / 2
		c.onTick(&ticks, now) // the ticker sees the recovery
	}
}
