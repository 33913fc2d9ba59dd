package runtime

import (
	"testing"
	"time"
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

// TestCoarseClock checks the cached clock against real time and that its
// ticker stops when idle and restarts on the next read. It uses a short tick
// and idle period so the real waits stay in the tens of milliseconds.
func TestCoarseClock(t *testing.T) {
	c := newCoarseClock(time.Millisecond, 10*time.Millisecond)
	first := c.Nanotime()
	if c.state.Load() != tickerRead {
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
	if drift := time.Duration(c.real() - cached); drift < 0 || drift > time.Second {
		t.Fatalf("cached reading %v behind real time", drift)
	}
	deadline = time.Now().Add(2 * time.Second)
	for c.state.Load() != tickerStopped {
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
	if c.state.Load() != tickerRead {
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
	c := newCoarseClock(time.Hour, 2*time.Hour)
	c.Nanotime() // starts the ticker and fills the cache
	for range 3 {
		time.Sleep(2 * time.Millisecond)
		c.state.Store(tickerIdle) // as the ticker's idle check leaves it
		woke := c.Nanotime()
		if next := c.Nanotime(); next < woke {
			t.Fatalf("read after the waking read went back %v", time.Duration(woke-next))
		}
	}
}
