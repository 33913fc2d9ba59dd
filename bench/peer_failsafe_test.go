package bench

import (
	"errors"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/ratelimiter"
)

// failsafeGuard runs each call through a failsafe-go executor composed of a
// rate limiter (outer, checked first, as Sentinel checks flow before degrade)
// and a circuit breaker. failsafe-go has no slow-call strategy, so the breaker
// is its time-based failure-rate breaker over the same window and thresholds;
// it records the outcome of every call, which is the bookkeeping a slow-ratio
// breaker also does.
type failsafeGuard struct {
	name     string
	executor failsafe.Executor[any]
}

// newFailsafeGuard composes limiter and a never-tripping breaker.
func newFailsafeGuard(name string, limiter ratelimiter.RateLimiter[any]) failsafeGuard {
	breaker := circuitbreaker.NewBuilder[any]().
		WithFailureRateThreshold(slowRatioThreshold, breakerMinRequests, breakerWindow).
		WithDelay(breakerOpenFor).
		Build()
	return failsafeGuard{name: name, executor: failsafe.With[any](limiter, breaker)}
}

// newFailsafePassGuard never limits: the bursty limiter grants more permits
// per second than a benchmark can use.
func newFailsafePassGuard() failsafeGuard {
	return newFailsafeGuard(passResource, ratelimiter.NewBursty[any](uint(passQPS), time.Second))
}

// newFailsafeBlockGuard uses an exhausted limiter: failsafe-go divides by the
// permit count, so a zero limit is expressed as one permit a day, spent here.
func newFailsafeBlockGuard() failsafeGuard {
	limiter := ratelimiter.NewBursty[any](1, exhaustedPeriod)
	limiter.TryAcquirePermit()
	return newFailsafeGuard(blockResource, limiter)
}

// guardedWork is the empty business call every peer wraps.
func guardedWork() error { return nil }

func (g failsafeGuard) once() outcome {
	err := g.executor.Run(guardedWork)
	switch {
	case err == nil:
		return passed
	case errors.Is(err, ratelimiter.ErrExceeded):
		return blockedByFlow
	}
	return blockedOther
}

func (g failsafeGuard) loop(b *testing.B, want outcome) {
	for b.Loop() {
		if got := g.once(); got != want {
			b.Fatalf("failsafe-go on %s: %v, want %v", g.name, got, want)
		}
	}
}

func (g failsafeGuard) loopParallel(b *testing.B, want outcome) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if got := g.once(); got != want {
				b.Errorf("failsafe-go on %s: %v, want %v", g.name, got, want)
				return
			}
		}
	})
}
