package bench

import (
	"testing"

	"github.com/sony/gobreaker/v2"
	"golang.org/x/time/rate"
)

// gobreakerRateGuard is the hand-assembled alternative many Go services use:
// an x/time/rate token bucket checked first, then a sony/gobreaker breaker
// around the call. gobreaker has no slow-call strategy either, so its breaker
// trips on the failure ratio over the same window and minimum request count.
// No latency is measured on its behalf: that would add two clock reads to its
// side of the comparison, and the point is to compare against the cheapest
// honest setup.
type gobreakerRateGuard struct {
	name    string
	limiter *rate.Limiter
	breaker *gobreaker.CircuitBreaker[struct{}]
}

// newGobreakerRateGuard pairs limiter with a never-tripping breaker.
func newGobreakerRateGuard(name string, limiter *rate.Limiter) gobreakerRateGuard {
	breaker := gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        name,
		MaxRequests: 1,
		Interval:    breakerWindow,
		Timeout:     breakerOpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.Requests >= breakerMinRequests &&
				float64(c.TotalFailures) >= slowRatioThreshold*float64(c.Requests)
		},
	})
	return gobreakerRateGuard{name: name, limiter: limiter, breaker: breaker}
}

// newGobreakerRatePassGuard never limits: the bucket refills far faster than
// calls arrive and holds a large burst.
func newGobreakerRatePassGuard() gobreakerRateGuard {
	return newGobreakerRateGuard(passResource, rate.NewLimiter(rate.Limit(passQPS), 1<<30))
}

// newGobreakerRateBlockGuard admits nothing: with a zero rate and a zero
// burst, x/time/rate still runs its full token arithmetic and then refuses.
func newGobreakerRateBlockGuard() gobreakerRateGuard {
	return newGobreakerRateGuard(blockResource, rate.NewLimiter(blockQPS, 0))
}

// gobreakerWork is the empty business call in gobreaker's generic shape.
func gobreakerWork() (struct{}, error) { return struct{}{}, nil }

func (g gobreakerRateGuard) once() outcome {
	if !g.limiter.Allow() {
		return blockedByFlow
	}
	if _, err := g.breaker.Execute(gobreakerWork); err != nil {
		return blockedOther
	}
	return passed
}

func (g gobreakerRateGuard) loop(b *testing.B, want outcome) {
	for b.Loop() {
		if got := g.once(); got != want {
			b.Fatalf("gobreaker+rate on %s: %v, want %v", g.name, got, want)
		}
	}
}

func (g gobreakerRateGuard) loopParallel(b *testing.B, want outcome) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if got := g.once(); got != want {
				b.Errorf("gobreaker+rate on %s: %v, want %v", g.name, got, want)
				return
			}
		}
	})
}
