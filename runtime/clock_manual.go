package runtime

import (
	"sync"
	"sync/atomic"
	"time"
)

// ManualClock is a Clock for tests: time moves only when the test calls
// Advance, or when the runtime sleeps through it, in which case Sleep moves
// the time forward by the requested duration instead of blocking. That makes
// queueing and borrowing deterministic: a test sees exactly how long each
// call would have waited. Install it with SetClock and restore the real clock
// with SetClock(nil) when the test ends.
type ManualClock struct {
	now atomic.Int64

	mu     sync.Mutex
	sleeps []time.Duration
}

// NewManualClock returns a clock reading start.
func NewManualClock(start time.Duration) *ManualClock {
	c := &ManualClock{}
	c.now.Store(int64(start))
	return c
}

// Nanotime returns the manual time.
func (c *ManualClock) Nanotime() int64 { return c.now.Load() }

// Now returns the manual time as a duration since zero.
func (c *ManualClock) Now() time.Duration { return time.Duration(c.now.Load()) }

// Advance moves the time forward by d (d must not be negative).
func (c *ManualClock) Advance(d time.Duration) {
	if d < 0 {
		panic("runtime: ManualClock.Advance with a negative duration")
	}
	c.now.Add(int64(d))
}

// Set moves the time to t, which must not be earlier than the current time.
func (c *ManualClock) Set(t time.Duration) {
	if int64(t) < c.now.Load() {
		panic("runtime: ManualClock.Set moving time backwards")
	}
	c.now.Store(int64(t))
}

// Sleep records d and advances the time by d without blocking.
func (c *ManualClock) Sleep(d time.Duration) {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	if d > 0 {
		c.now.Add(int64(d))
	}
}

// Sleeps returns the durations passed to Sleep so far, in call order.
func (c *ManualClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// ResetSleeps forgets the recorded sleeps.
func (c *ManualClock) ResetSleeps() {
	c.mu.Lock()
	c.sleeps = nil
	c.mu.Unlock()
}
