package redis

import (
	"context"
	"sync/atomic"
	"time"
)

// health is the service's circuit around Redis. The first failed round trip
// (an error or no answer within the timeout) marks Redis down: from then on
// calls that would need Redis get TokenFail at once instead of each waiting
// out the timeout, and a background probe pings Redis every probe interval
// until it answers, which marks it up again. Each transition is logged once
// and counted.
type health struct {
	down    atomic.Bool
	downs   atomic.Int64 // transitions up → down
	ups     atomic.Int64 // transitions down → up
	probing atomic.Bool
}

// failed records a failed round trip.
func (s *TokenService) failed(err error) {
	if s.closed.Load() || !s.health.down.CompareAndSwap(false, true) {
		return
	}
	s.health.downs.Add(1)
	s.cfg.logger.Warn("sentinel cluster: Redis token service unavailable; cluster rules fall back to local checks",
		"error", err, "instance", s.cfg.instanceID)
	s.startProbe()
}

// succeeded records a round trip that got an answer.
func (s *TokenService) succeeded() {
	if !s.health.down.CompareAndSwap(true, false) {
		return
	}
	s.health.ups.Add(1)
	s.cfg.logger.Info("sentinel cluster: Redis token service available again; cluster rules back in cluster mode",
		"instance", s.cfg.instanceID)
}

// startProbe runs the probe loop unless one runs already.
func (s *TokenService) startProbe() {
	if !s.health.probing.CompareAndSwap(false, true) {
		return
	}
	if !s.goBackground(s.probe) {
		s.health.probing.Store(false)
	}
}

// probe pings Redis every probe interval while it is down.
func (s *TokenService) probe() {
	t := time.NewTicker(s.cfg.probeInterval)
	defer t.Stop()
	for s.health.down.Load() {
		select {
		case <-s.stop:
			s.health.probing.Store(false)
			return
		case <-t.C:
		}
		err := s.probeCall.do(s.cfg.timeout, s.stop, func(ctx context.Context) error {
			return s.client.Ping(ctx).Err()
		})
		if err == nil {
			s.succeeded()
		}
	}
	s.health.probing.Store(false)
	// Redis may have failed again between the loop's check and the store
	// above, when failed saw a probe still running and started none.
	if s.health.down.Load() {
		s.startProbe()
	}
}
