package coarseclock

import (
	"sync/atomic"
	"time"
)

// Clock is the real monotonic clock read through a cache, refreshed by a
// ticker while it is in use and audited by its callers (see the package
// doc). It implements the runtime's Clock interface.
type Clock struct {
	cached atomic.Int64
	// audited is the latest real reading an audit or the ticker took (but
	// not a read of stateLagging): how fresh the cache would be with the
	// ticker late and no read real (see onTick). It shares cached's line:
	// the audits that write one write the other.
	audited atomic.Int64
	_       [48]byte // keep readers of cached off the line the ticker's state flips on
	// state is stateStopped, stateRead (running, read since the last idle
	// check), stateIdle (running, no read since the last idle check) or
	// stateLagging (running late: every read is a real one).
	state atomic.Uint32
	// freshAudits counts the audits in a row, while lagging, that came
	// within a tick of the audit or tick before them (see Audit).
	freshAudits atomic.Int32
	base        time.Time
	tick        time.Duration
	idle        time.Duration
	// phase is added to the time since base (see New).
	phase int64
	// source, when not nil, replaces the real monotonic reading: tests set
	// it (with noTicker) to starve the ticker deterministically. Nil
	// spares real readings a call through a func value.
	source   func() int64
	noTicker bool
}

const (
	stateStopped uint32 = iota
	stateRead
	stateIdle
	stateLagging
)

// LateLimit is how many ticks the cache may trail real time before reads
// turn real; recoverTicks is how many on-time ticks in a row turn them back
// to the cache, the first time; maxRecoverTicks caps how many they take
// after relapses (see tickerTicks.need).
const (
	LateLimit       = 4
	recoverTicks    = 10
	maxRecoverTicks = 1024
)

// recoverAudits is how many audits in a row, each within a tick of the one
// before, turn a lagging clock back to the cache by themselves (see Audit).
const recoverAudits = 8 * recoverTicks

// New returns a clock whose ticker refreshes the cache every tick while
// reads come, and stops after idle without a read. Its readings are
// nanoseconds since an arbitrary start, offset so that whole seconds of the
// reading fall on the wall clock's whole seconds.
func New(tick, idle time.Duration) *Clock {
	c := &Clock{base: time.Now(), tick: tick, idle: idle}
	// Offset by the wall clock's sub-second part at start, so windows begin on wall-clock seconds (metric lines, the dashboard).
	c.phase = int64(c.base.Nanosecond())
	return c
}

// NewStarved returns a clock like New's whose ticker never runs (the
// extreme of a starved ticker) and whose real time is source: tests drive
// the cache, the audits and the lagging mode with it deterministically.
func NewStarved(tick time.Duration, source func() int64) *Clock {
	c := New(tick, time.Hour)
	c.source, c.noTicker = source, true
	return c
}

// Off is a clock that is never in use: no read goes through it, so its
// Cached reports false for ever. The runtime points its fast path at Off
// while another clock is in force, so that the path needs no nil check.
var Off = &Clock{}

// Real is the real monotonic reading, bypassing the cache. Unlike a read
// it does not mark the clock as in use, so it does not keep the ticker
// running.
func (c *Clock) Real() int64 {
	if c.source != nil {
		return c.source()
	}
	return int64(time.Since(c.base)) + c.phase
}

// Nanotime returns the cached reading while the clock is in use and on
// time, otherwise a real reading (see Wake).
func (c *Clock) Nanotime() int64 {
	if c.state.Load() == stateRead {
		return c.cached.Load()
	}
	return c.Wake()
}

// Cached is Nanotime's fast path: the cached reading and true while the
// cache is in use, or false when the caller must call Wake (or Nanotime).
// It inlines, since it has no slow path to call.
func (c *Clock) Cached() (int64, bool) {
	ok := c.state.Load() == stateRead
	return c.cached.Load(), ok
}

// Lagging reports whether the clock is in its lagging mode, in which
// every read is a real one.
func (c *Clock) Lagging() bool { return c.state.Load() == stateLagging }

// Wake marks the clock as in use, starting the ticker when it is stopped, and
// returns a real reading. The reading is also published to the cache (never
// moving it backwards): readers after this one load the cache, and were it
// left at the ticker's last value they would see time step back by up to a
// tick, which can put them in the window bucket before this caller's, where
// they would not count its pass.
func (c *Clock) Wake() int64 {
	for {
		switch s := c.state.Load(); s {
		case stateLagging:
			// Every read is real. Publish only a new millisecond, so that
			// cores reading at once do not bounce the cache's line with a
			// swap per read: readings within one millisecond fall in the
			// same window bucket whichever the cache holds.
			now := c.Real()
			if now/1e6 > c.cached.Load()/1e6 {
				c.advance(now)
			}
			return now
		case stateRead:
			return c.advance(c.Real())
		case stateIdle:
			if c.state.CompareAndSwap(stateIdle, stateRead) {
				return c.advance(c.Real())
			}
		case stateStopped:
			if c.state.CompareAndSwap(stateStopped, stateRead) {
				now := c.advance(c.Real())
				if !c.noTicker {
					go c.run()
				}
				return now
			}
		}
	}
}

// Audit compares the cache with a real reading and turns the clock to its
// lagging mode when the cache trails by more than LateLimit ticks; callers
// call it every AuditEvery recordings per processor (see Audits), unpinned,
// since it reads the real clock.
//
// An audit moves the cache, and audited, only when they are an eighth of a
// tick (auditStep) behind: with every processor busy with calls, each
// audits often, and a write each time would take the cache's line away
// from the other cores' readers as often. An eighth of a tick is within
// the tick's own precision.
func (c *Clock) Audit() {
	switch c.state.Load() {
	case stateRead:
		now := c.Real()
		behind := now - c.cached.Load()
		if behind > LateLimit*int64(c.tick) {
			c.state.CompareAndSwap(stateRead, stateLagging)
		}
		if behind >= int64(c.tick)/auditStep {
			c.advance(now)
			advanceTo(&c.audited, now)
		}
	case stateLagging:
		// Every read is real, so the cache needs no audit; the reading
		// tells the ticker that audits come often enough to keep the
		// cache fresh without them (see onTick). While every processor is
		// busy with calls the ticker wakes rarely, and late, so its ticks
		// would take long to turn the clock back: recoverAudits audits in
		// a row, each within a tick of the one before, do it too, for they
		// show the callers keeping the cache fresh. Their count does not
		// grow with relapses as the ticker's does: a relapse found by an
		// audit is a pause of every caller (the operating system or the
		// collector holding them), after which the audits, as frequent as
		// before, keep the cache fresh again.
		now := c.Real()
		prev := c.audited.Load()
		if now-prev >= int64(c.tick)/auditStep {
			advanceTo(&c.audited, now)
		}
		if now-prev >= int64(c.tick) {
			c.freshAudits.Store(0)
		} else if c.freshAudits.Add(1) >= recoverAudits && c.state.CompareAndSwap(stateLagging, stateRead) {
			c.freshAudits.Store(0)
			c.advance(now)
		}
	}
	// Stopped or idle: the next read is real.
}

// auditStep divides the tick into the lag an audit leaves alone (see
// audit).
const auditStep = 8

// advanceTo moves w forward to now, unless it is already further.
func advanceTo(w *atomic.Int64, now int64) {
	for old := w.Load(); now > old && !w.CompareAndSwap(old, now); old = w.Load() {
	}
}

// advance moves the cached reading forward to now, unless another reading
// already moved it further, and returns the cached reading: readings handed
// out never go backwards, whichever goroutine took them.
func (c *Clock) advance(now int64) int64 {
	for {
		old := c.cached.Load()
		if now <= old {
			return old
		}
		if c.cached.CompareAndSwap(old, now) {
			return now
		}
	}
}

// run is the ticker: it refreshes the cache every tick, judges the clock's
// punctuality (onTick) and stops after an idle period without a read.
func (c *Clock) run() {
	t := time.NewTicker(c.tick)
	defer t.Stop()
	var ticks tickerTicks
	ticks.prev = c.Real()
	checkEvery := int(c.idle / c.tick)
	for n := 1; ; n++ {
		<-t.C
		c.onTick(&ticks, c.Real())
		if n%checkEvery != 0 {
			continue
		}
		if c.state.CompareAndSwap(stateRead, stateIdle) {
			continue
		}
		// No read since the last check: stop, unless a reader raced in.
		// (A lagging clock is in use and matches neither swap.)
		if c.state.CompareAndSwap(stateIdle, stateStopped) {
			return
		}
	}
}

// tickerTicks is the ticker's memory of its own punctuality and of the
// clock's recent states.
type tickerTicks struct {
	prev   int64 // real time of the previous tick
	onTime int   // ticks in a row that came on time (see onTick)
	// need is how many ticks on time in a row turn a lagging clock back to
	// the cache: recoverTicks at first, doubled (up to maxRecoverTicks)
	// each time the clock turns lagging again within maxRecoverTicks ticks
	// of its last recovery. A relapse means the audits that made late
	// ticks count as on time stopped, and up to AuditEvery calls per
	// processor saw a stale cache before one noticed: a busy process whose
	// guarded calls come in bursts between long stretches of other work
	// would otherwise pay that every recoverTicks ticks.
	need      int
	readFor   int  // ticks in a row that left the clock stateRead
	recovered bool // the clock has turned from lagging back to the cache
	lagging   bool // the clock was lagging when the previous tick ended
}

// onTick refreshes the cache at a tick read at now, and judges whether the
// cache is kept fresh: a tick more than LateLimit ticks after the previous
// one shows the ticker starved, and unless an audit refreshed the cache
// within the last tick (the callers keep it fresh, see Clock), reads
// turn real; t.need ticks in a row that came on time or found such an
// audit turn a lagging clock back to the cache.
func (c *Clock) onTick(t *tickerTicks, now int64) {
	if t.need == 0 {
		t.need = recoverTicks
	}
	switch lagging := c.state.Load() == stateLagging; {
	case lagging && !t.lagging:
		t.turnedLagging() // by an audit, since the last tick
	case !lagging && t.lagging:
		t.recovered = true // by the audits, since the last tick
	}
	audited := c.audited.Load()
	c.advance(now)
	advanceTo(&c.audited, now)
	late := now-t.prev > LateLimit*int64(c.tick)
	if late && now-audited > int64(c.tick) {
		t.onTime = 0
		if c.state.CompareAndSwap(stateRead, stateLagging) {
			t.turnedLagging()
		}
	} else if t.onTime++; t.onTime >= t.need && c.state.CompareAndSwap(stateLagging, stateRead) {
		t.recovered = true
	}
	t.prev = now
	if t.lagging = c.state.Load() == stateLagging; t.lagging {
		t.readFor = 0
	} else {
		t.readFor++
	}
}

// turnedLagging records that the clock turned lagging since the last tick
// or at this one: the ticks on time start again from zero, and need doubles
// on a relapse (see need), or starts again from recoverTicks once the cache
// has served maxRecoverTicks ticks in a row.
func (t *tickerTicks) turnedLagging() {
	t.onTime = 0
	if !t.recovered {
		return
	}
	if t.readFor < maxRecoverTicks {
		t.need = min(2*t.need, maxRecoverTicks)
	} else {
		t.need = recoverTicks
	}
}

// Sleep sleeps for real.
func (c *Clock) Sleep(d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
}
