package coarseclock

import (
	"testing"
	"time"
)

// TestCoarseClock checks the cached clock against real time and that its
// ticker stops when idle and restarts on the next read. It uses a short tick
// and idle period so the real waits stay in the tens of milliseconds.
func TestCoarseClock(t *testing.T) {
	c := New(time.Millisecond, 10*time.Millisecond)
	first := c.Nanotime()
	if c.state.Load() != stateRead {
		t.Fatalf("ticker not started on first read: state %d", c.state.Load())
	}
	deadline := time.Now().Add(2 * time.Second)
	for c.Nanotime() == first {
		if time.Now().After(deadline) {
			t.Fatal("cached clock never moved")
		}
		time.Sleep(time.Millisecond)
	}
	cached := c.Nanotime()
	if drift := time.Duration(c.Real() - cached); drift < 0 || drift > time.Second {
		t.Fatalf("cached reading %v behind real time", drift)
	}
	deadline = time.Now().Add(2 * time.Second)
	for c.state.Load() != stateStopped {
		if time.Now().After(deadline) {
			t.Fatal("ticker still running long after reads stopped")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(3 * time.Millisecond)
	stale := c.cached.Load()
	fresh := c.Nanotime()
	if fresh <= stale {
		t.Fatalf("first read after idle returned the stale cache (%d <= %d)", fresh, stale)
	}
	if c.state.Load() != stateRead {
		t.Fatal("ticker not restarted by a read")
	}
}

// TestCoarseClockNeverStepsBack checks that a read which wakes an idle clock
// (and so takes a real reading) is not followed by cached reads from before
// it. A tick of an hour keeps the ticker from refreshing the cache, so only
// the waking read can have moved it. Without this a pass recorded at the
// waking read's time sat in a later window bucket than the calls after it
// checked, and a QPS rule of 40 let 41 calls through.
func TestCoarseClockNeverStepsBack(t *testing.T) {
	c := New(time.Hour, 2*time.Hour)
	c.Nanotime() // starts the ticker and fills the cache
	for range 3 {
		time.Sleep(2 * time.Millisecond)
		c.state.Store(stateIdle) // as the ticker's idle check leaves it
		woke := c.Nanotime()
		if next := c.Nanotime(); next < woke {
			t.Fatalf("read after the waking read went back %v", time.Duration(woke-next))
		}
	}
}

// The clock's milliseconds fall on the wall clock's, so the runtime's
// second-level windows (and the metric lines read from them) cover
// wall-clock seconds.
func TestMillisecondsOnWallSeconds(t *testing.T) {
	c := New(time.Millisecond, time.Second)
	wall := time.Now().UnixMilli()
	mono := c.Real() / 1e6
	if d := (wall - mono) % 1000; d > 5 && d < 995 {
		t.Fatalf("runtime ms %d and wall ms %d differ by %d ms within the second", mono, wall, d)
	}
}
