package etcd

import (
	"context"
	"math/rand/v2"
	"time"
)

// backoff yields exponentially growing waits between retries, capped, with
// "equal jitter": each wait is between half and all of the current step, so
// instances that lost etcd together spread their retries out.
type backoff struct {
	min, max time.Duration
	step     time.Duration // 0 until the first failure
}

// next returns the wait before the next retry and grows the step.
func (b *backoff) next() time.Duration {
	if b.step == 0 {
		b.step = b.min
	} else {
		b.step = min(2*b.step, b.max)
	}
	half := b.step / 2
	return half + rand.N(b.step-half+1)
}

// reset starts over from min after a success.
func (b *backoff) reset() { b.step = 0 }

// sleep waits d or until ctx ends; it reports whether the full wait passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
