package runtime

import (
	"sync/atomic"
	"time"
)

// Clock is the runtime's only source of time. Every timestamp (window
// buckets, response times, breaker retry times) and every wait (rate-limiter
// queueing, prioritised borrowing) goes through the Clock in force, so a test
// that installs a ManualClock controls the runtime exactly.
type Clock interface {
	// Nanotime is a monotonic reading in nanoseconds; only differences matter.
	Nanotime() int64
	// Sleep blocks the calling goroutine for d (a manual clock may instead
	// move its time forward by d).
	Sleep(d time.Duration)
}

// clockBox lets an interface value be swapped atomically. coarse is c when
// c is the default clock's type, so that nowNanos reads its cache without an
// interface call (a dynamic call costs about 5% of a pass); for any other
// clock it is notCoarse, whose cache is never in use, so that the fast path
// needs no nil check to stay within the inliner's budget.
type clockBox struct {
	c      Clock
	coarse *coarseClock
}

// notCoarse is never read through: its state stays tickerStopped.
var notCoarse = &coarseClock{}

func newClockBox(c Clock) *clockBox {
	cc, ok := c.(*coarseClock)
	if !ok {
		cc = notCoarse
	}
	return &clockBox{c: c, coarse: cc}
}

var activeClock atomic.Pointer[clockBox]

// activeCoarse is activeClock's coarse, kept apart so that nowNanos reaches
// the cache in two dependent loads rather than three (the chain is most of
// a cached reading's cost). SetClock changes it around activeClock; init
// sets it before any call can read it.
var activeCoarse atomic.Pointer[coarseClock]

func init() { SetClock(nil) }

// SetClock installs c as the runtime's clock; nil restores the real clock.
// Windows hold timestamps of the clock that wrote them, so switch clocks
// before traffic starts (typically at the top of a test), not during it.
func SetClock(c Clock) {
	if c == nil {
		c = systemClock
	}
	// Readers between the stores take the slow path, which reads activeClock.
	b := newClockBox(c)
	activeCoarse.Store(notCoarse)
	activeClock.Store(b)
	activeCoarse.Store(b.coarse)
}

// CurrentClock returns the clock in force.
func CurrentClock() Clock { return activeClock.Load().c }

// nowNanos reads the clock in force once: with the default clock running on
// time, two dependent loads and a compare. It is too big to inline (its slow
// path is a call); the pass path reads through nowCached first.
func nowNanos() int64 {
	c := activeCoarse.Load()
	if c.state.Load() == tickerRead {
		return c.cached.Load()
	}
	if c != notCoarse {
		// The default clock, its cache not in use: straight to wake, for
		// a clock whose ticker is starved takes this path on every read.
		return c.wake()
	}
	return activeClock.Load().read()
}

// read is nowNanos's slow path: another clock, or the default clock when
// its cache is not in use.
func (b *clockBox) read() int64 {
	if b.coarse != notCoarse {
		return b.coarse.wake()
	}
	return b.c.Nanotime()
}

// nowCached is nowNanos's fast path, for the two readings of a guarded
// call (Resource.enter and enterAny, Entry.Exit and exitAny): the default
// clock's cached reading and true while it is in use, or false when the
// caller must call nowNanos. Unlike nowNanos it inlines, since it has no
// slow path to call (a call alone takes most of the inliner's budget); its
// callers save a call each.
func nowCached() (int64, bool) {
	c := activeCoarse.Load()
	ok := c.state.Load() == tickerRead
	return c.cached.Load(), ok
}

// sleep waits through the clock in force.
func sleep(d time.Duration) { activeClock.Load().c.Sleep(d) }

// systemClock is the default clock; see coarseClock.
var systemClock = newCoarseClock(time.Millisecond, time.Second)

// coarseClock is the real monotonic clock read through a cache.
//
// A monotonic read costs about 25-30 ns on common virtual machines, more than
// the rest of an Entry/Exit pair, and a guarded call reads the time twice. So
// while calls are flowing, a ticker goroutine refreshes a cached reading every
// tick (1 ms) and readers load that word instead. The ticker starts lazily on
// the first read and stops itself after a full idle period (1 s) with no reads,
// so an idle process has no background wake-ups. The first read after a pause
// takes a real reading. Consequence: response times are kept at millisecond
// precision, the same precision Sentinel keeps.
//
// A starved ticker (a busy CPU, GOMAXPROCS=1 with a goroutine that does not
// yield) would leave the cache behind real time by as long as the scheduler
// keeps it waiting, tens of milliseconds to seconds, and calls at a QPS limit
// would be judged in a window already over. Two safeguards bound that (see
// clock_audit.go): the runtime compares the cache with a real reading once
// every auditEvery recordings on each processor, moving the cache to it, and
// the ticker checks how late it woke. An audit finding the cache more than
// lateLimit ticks behind, or a late tick finding that no audit has refreshed
// the cache within the last tick either, turns the clock to tickerLagging,
// in which every read is a real one, until recoverTicks ticks in a row have
// come on time or found the cache refreshed by an audit within a tick (more
// after relapses, see tickerTicks.need). So a call sees a time at most
// lateLimit ticks old, except for at most auditEvery calls per processor
// each time the cache falls behind, which after the first time happens at
// most once per recoverTicks·2ⁿ ticks on the n-th relapse.
//
// Why audits count as on time: when every processor is busy with guarded
// calls (a saturated server, a parallel benchmark), the ticker runs only when
// the scheduler preempts a caller, about every 10 ms, and always wakes late;
// but the callers' audits, every auditEvery calls per processor, keep the
// cache within microseconds of real time. Judged by the ticker's punctuality
// alone, such a clock was lagging for as long as the load lasted, and every
// call paid two real readings (about 35 ns each on common VMs) where the
// cache served as well. When the calls thin out the audits stop, and the
// next late tick or audit finds the cache stale.
type coarseClock struct {
	cached atomic.Int64
	// audited is the latest real reading an audit or the ticker took (but
	// not a read of tickerLagging): how fresh the cache would be with the
	// ticker late and no read real (see onTick). It shares cached's line:
	// the audits that write one write the other.
	audited atomic.Int64
	_       [48]byte // keep readers of cached off the line the ticker's state flips on
	// state is tickerStopped, tickerRead (running, read since the last idle
	// check), tickerIdle (running, no read since the last idle check) or
	// tickerLagging (running late: every read is a real one).
	state atomic.Uint32
	base  time.Time
	tick  time.Duration
	idle  time.Duration
	// phase is added to the time since base (see newCoarseClock).
	phase int64
	// source, when not nil, replaces the real monotonic reading: tests set
	// it (with noTicker) to starve the ticker deterministically. Nil
	// spares real readings a call through a func value.
	source   func() int64
	noTicker bool
}

const (
	tickerStopped uint32 = iota
	tickerRead
	tickerIdle
	tickerLagging
)

// lateLimit is how many ticks the cache may trail real time before reads
// turn real; recoverTicks is how many on-time ticks in a row turn them back
// to the cache, the first time; maxRecoverTicks caps how many they take
// after relapses (see tickerTicks.need).
const (
	lateLimit       = 4
	recoverTicks    = 10
	maxRecoverTicks = 1024
)

func newCoarseClock(tick, idle time.Duration) *coarseClock {
	c := &coarseClock{base: time.Now(), tick: tick, idle: idle}
	// Offset by the wall clock's sub-second part at start, so windows begin on wall-clock seconds (metric lines, the dashboard).
	c.phase = int64(c.base.Nanosecond())
	return c
}

// real is the real monotonic reading.
func (c *coarseClock) real() int64 {
	if c.source != nil {
		return c.source()
	}
	return int64(time.Since(c.base)) + c.phase
}

// Nanotime returns the cached reading while the ticker runs on time.
func (c *coarseClock) Nanotime() int64 {
	if c.state.Load() == tickerRead {
		return c.cached.Load()
	}
	return c.wake()
}

// wake marks the clock as in use, starting the ticker when it is stopped, and
// returns a real reading. The reading is also published to the cache (never
// moving it backwards): readers after this one load the cache, and were it
// left at the ticker's last value they would see time step back by up to a
// tick, which can put them in the window bucket before this caller's, where
// they would not count its pass.
func (c *coarseClock) wake() int64 {
	for {
		switch s := c.state.Load(); s {
		case tickerLagging:
			// Every read is real. Publish only a new millisecond, so that
			// cores reading at once do not bounce the cache's line with a
			// swap per read: readings within one millisecond fall in the
			// same window bucket whichever the cache holds.
			now := c.real()
			if now/1e6 > c.cached.Load()/1e6 {
				c.advance(now)
			}
			return now
		case tickerRead:
			return c.advance(c.real())
		case tickerIdle:
			if c.state.CompareAndSwap(tickerIdle, tickerRead) {
				return c.advance(c.real())
			}
		case tickerStopped:
			if c.state.CompareAndSwap(tickerStopped, tickerRead) {
				now := c.advance(c.real())
				if !c.noTicker {
					go c.run()
				}
				return now
			}
		}
	}
}

// audit compares the cache with a real reading and turns the clock to
// tickerLagging when the cache trails by more than lateLimit ticks; the
// runtime calls it every auditEvery recordings per processor.
//
// An audit moves the cache, and audited, only when they are an eighth of a
// tick (auditStep) behind: with every processor busy with calls, each
// audits every few microseconds, and a write each time would take the
// cache's line away from the other cores' readers that often (in
// BenchmarkEntryBlockParallel, a sixth of Resource.enter's samples fell on
// the load of the cache). An eighth of a tick is within the tick's own
// precision.
func (c *coarseClock) audit() {
	switch c.state.Load() {
	case tickerRead:
		now := c.real()
		behind := now - c.cached.Load()
		if behind > lateLimit*int64(c.tick) {
			c.state.CompareAndSwap(tickerRead, tickerLagging)
		}
		if behind >= int64(c.tick)/auditStep {
			c.advance(now)
			advanceTo(&c.audited, now)
		}
	case tickerLagging:
		// Every read is real, so the cache needs no audit; the reading
		// tells the ticker that audits come often enough to keep the
		// cache fresh without them (see onTick).
		if now := c.real(); now-c.audited.Load() >= int64(c.tick)/auditStep {
			advanceTo(&c.audited, now)
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
func (c *coarseClock) advance(now int64) int64 {
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

func (c *coarseClock) run() {
	t := time.NewTicker(c.tick)
	defer t.Stop()
	var ticks tickerTicks
	ticks.prev = c.real()
	checkEvery := int(c.idle / c.tick)
	for n := 1; ; n++ {
		<-t.C
		c.onTick(&ticks, c.real())
		if n%checkEvery != 0 {
			continue
		}
		if c.state.CompareAndSwap(tickerRead, tickerIdle) {
			continue
		}
		// No read since the last check: stop, unless a reader raced in.
		// (A lagging clock is in use and matches neither swap.)
		if c.state.CompareAndSwap(tickerIdle, tickerStopped) {
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
	// ticks count as on time stopped, and up to auditEvery calls per
	// processor saw a stale cache before one noticed: a busy process whose
	// guarded calls come in bursts between long stretches of other work
	// would otherwise pay that every recoverTicks ticks.
	need      int
	readFor   int  // ticks in a row that left the clock tickerRead
	recovered bool // the clock has turned from lagging back to the cache
	lagging   bool // the clock was lagging when the previous tick ended
}

// onTick refreshes the cache at a tick read at now, and judges whether the
// cache is kept fresh: a tick more than lateLimit ticks after the previous
// one shows the ticker starved, and unless an audit refreshed the cache
// within the last tick (the callers keep it fresh, see coarseClock), reads
// turn real; t.need ticks in a row that came on time or found such an
// audit turn a lagging clock back to the cache.
func (c *coarseClock) onTick(t *tickerTicks, now int64) {
	if t.need == 0 {
		t.need = recoverTicks
	}
	if c.state.Load() == tickerLagging && !t.lagging {
		t.turnedLagging() // by an audit, since the last tick
	}
	audited := c.audited.Load()
	c.advance(now)
	advanceTo(&c.audited, now)
	late := now-t.prev > lateLimit*int64(c.tick)
	if late && now-audited > int64(c.tick) {
		t.onTime = 0
		if c.state.CompareAndSwap(tickerRead, tickerLagging) {
			t.turnedLagging()
		}
	} else if t.onTime++; t.onTime >= t.need && c.state.CompareAndSwap(tickerLagging, tickerRead) {
		t.recovered = true
	}
	t.prev = now
	if t.lagging = c.state.Load() == tickerLagging; t.lagging {
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
func (c *coarseClock) Sleep(d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
}
