package redis

import (
	"context"
	"errors"
	"time"
)

// heartbeats refreshes this instance's entry in the live set of every flow
// it has used, every heartbeat interval, until Close. The acquire script
// refreshes the entry too, so an instance counts as live from its first
// cluster call; heartbeats keep it live while its leases last long or its
// traffic pauses. While Redis is down the probe, not the heartbeat, decides
// when it is back.
func (s *TokenService) heartbeats() {
	t := time.NewTicker(s.cfg.heartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		if s.health.down.Load() {
			continue
		}
		for _, f := range *s.flows.Load() {
			ctx, cancel := context.WithTimeout(context.Background(), s.cfg.timeout)
			_, err := s.runHeartbeat(ctx, f)
			cancel()
			if err != nil {
				s.failed(err)
				break
			}
			s.succeeded()
		}
	}
}

// deregister removes this instance from the live set of every flow it has
// used, within Timeout.
func (s *TokenService) deregister() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.timeout)
	defer cancel()
	var errs []error
	for _, f := range *s.flows.Load() {
		if err := s.client.ZRem(ctx, f.keys[1], s.cfg.instanceID).Err(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
