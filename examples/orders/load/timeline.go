package load

import (
	"context"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// timeline is where the driver, the calls and the simulated inventory get
// their time and their concurrency. The real one uses the wall clock and
// goroutines; the virtual one (virtual.go) runs the same code one step at a
// time on simulated time, so a test run is exact and takes milliseconds.
type timeline interface {
	// Now returns the current time on the runtime clock's scale (a
	// monotonic reading, not a date), so that whole seconds here are whole
	// seconds of the runtime's statistics buckets.
	Now() time.Duration
	// Sleep waits for d, or until ctx is done (real time only).
	Sleep(ctx context.Context, d time.Duration) error
	// Go starts f concurrently with the caller.
	Go(f func())
}

// realTimeline runs on the runtime's real clock. wait returns once every
// function started with Go has returned.
type realTimeline struct {
	wg sync.WaitGroup
}

func (*realTimeline) Now() time.Duration { return time.Duration(runtime.CurrentClock().Nanotime()) }

func (*realTimeline) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *realTimeline) Go(f func()) { r.wg.Go(f) }

func (r *realTimeline) wait() { r.wg.Wait() }
