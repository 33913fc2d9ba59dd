package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
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
			err := s.heartbeatCall.do(s.cfg.timeout, s.stop, func(ctx context.Context) error {
				_, err := s.runHeartbeat(ctx, f)
				return err
			})
			if errors.Is(err, errClosed) {
				return
			}
			if err != nil {
				s.failed(err)
				break
			}
			s.succeeded()
		}
	}
}

// deregister removes this instance from the live set of every flow it has
// used, in one pipelined round trip bounded by the close timeout.
func (s *TokenService) deregister() error {
	flows := *s.flows.Load()
	if len(flows) == 0 {
		return nil
	}
	var call boundedCall
	err := call.do(s.cfg.closeTimeout, nil, func(ctx context.Context) error {
		_, err := s.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for _, f := range flows {
				p.ZRem(ctx, f.keys[1], s.cfg.instanceID)
			}
			return nil
		})
		return err
	})
	if errors.Is(err, errTimeout) {
		return fmt.Errorf("cluster/redis: Redis did not confirm removing instance %s from the live sets within the close timeout %v; its entries expire after the heartbeat TTL %v",
			s.cfg.instanceID, s.cfg.closeTimeout, s.cfg.heartbeatTTL)
	}
	if err != nil {
		return fmt.Errorf("cluster/redis: removing instance %s from the live sets: %w", s.cfg.instanceID, err)
	}
	return nil
}
