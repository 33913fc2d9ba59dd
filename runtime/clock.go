package runtime

import (
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/coarseclock"
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
// interface call; for any other clock it is coarseclock.Off, whose cache is
// never in use, so that the fast path needs no nil check to stay within the
// inliner's budget.
type clockBox struct {
	c      Clock
	coarse *coarseclock.Clock
}

// newClockBox boxes c.
func newClockBox(c Clock) *clockBox {
	cc, ok := c.(*coarseclock.Clock)
	if !ok {
		cc = coarseclock.Off
	}
	return &clockBox{c: c, coarse: cc}
}

// activeClock is the clock in force (SetClock).
var activeClock atomic.Pointer[clockBox]

// activeCoarse is activeClock's coarse, kept apart so that nowNanos reaches
// the cache in two dependent loads rather than three (the chain is most of
// a cached reading's cost). SetClock changes it around activeClock; init
// sets it before any call can read it.
var activeCoarse atomic.Pointer[coarseclock.Clock]

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
	activeCoarse.Store(coarseclock.Off)
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
	if now, ok := c.Cached(); ok {
		return now
	}
	if c != coarseclock.Off {
		// The default clock, its cache not in use: straight to Wake, for
		// a clock whose ticker is starved takes this path on every read.
		return c.Wake()
	}
	return activeClock.Load().read()
}

// read is nowNanos's slow path: another clock, or the default clock when
// its cache is not in use.
func (b *clockBox) read() int64 {
	if b.coarse != coarseclock.Off {
		return b.coarse.Wake()
	}
	return b.c.Nanotime()
}

// nowCached is nowNanos's fast path, for the two readings of a guarded
// call (Resource.enter and enterGeneral, Entry.Exit and exitGeneral): the
// default clock's cached reading and true while it is in use, or false
// when the caller must call nowNanos. Unlike nowNanos it inlines, since it
// has no slow path to call (a call alone takes most of the inliner's
// budget); its callers save a call each.
func nowCached() (int64, bool) { return activeCoarse.Load().Cached() }

// sleep waits through the clock in force.
func sleep(d time.Duration) { activeClock.Load().c.Sleep(d) }

// systemClock is the default clock: the real clock read through a cache
// refreshed every millisecond while calls flow (see package coarseclock).
var systemClock = coarseclock.New(time.Millisecond, time.Second)

// clockAudits times the audits of the default clock's cache: every
// coarseclock.AuditEvery recordings (passes and blocks) on each processor.
// Passes that take an exit ticket are timed by its sequence number instead
// (coarseclock.DueAt), which counts them already.
var clockAudits = coarseclock.NewAudits()

// auditClock audits the clock in force when it is the default cached clock
// (any other clock is read directly and cannot go stale). Call it unpinned:
// it may read the real clock.
//
//go:noinline
func auditClock() {
	if c, ok := activeClock.Load().c.(*coarseclock.Clock); ok {
		c.Audit()
	}
}
