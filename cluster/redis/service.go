package redis

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// TokenService is a runtime.TokenService backed by Redis. Create it with
// NewTokenService, install it with runtime.SetTokenService, and Close it when
// the process stops serving. It is safe for concurrent use.
type TokenService struct {
	client goredis.UniversalClient
	cfg    config

	// flows maps FlowID to its state. It is copied on write (a new FlowID
	// is rare) so that the hot path reads it without a lock.
	flows   atomic.Pointer[map[int64]*flowState]
	flowsMu sync.Mutex

	health health

	fallbacks atomic.Int64
	refills   atomic.Int64
	failures  atomic.Int64

	// Background goroutines (heartbeat, probe) stop when stop closes; bgMu
	// keeps new ones from starting once Close has begun.
	bgMu   sync.Mutex
	bg     sync.WaitGroup
	stop   chan struct{}
	closed atomic.Bool

	// probeCall and heartbeatCall bound the background loops' round trips
	// (see boundedCall), so that they stop at once when Close begins.
	probeCall, heartbeatCall boundedCall
}

var _ runtime.TokenService = (*TokenService)(nil)

// NewTokenService returns a token service drawing budgets from the Redis
// deployment client talks to: a single server (*goredis.Client), Redis
// Cluster (*goredis.ClusterClient) or Sentinel-managed failover
// (goredis.NewFailoverClient / NewUniversalClient with a MasterName). Every
// key of one FlowID carries the hash tag {FlowID}, so one script touches one
// hash slot. The client's own timeouts may be longer than the service's:
// the service never waits beyond its Timeout whatever the client does.
//
// It starts the heartbeat loop; call Close to stop it. It does not contact
// Redis: the first cluster-mode call does.
func NewTokenService(client goredis.UniversalClient, opts ...Option) (*TokenService, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	s := &TokenService{client: client, cfg: cfg, stop: make(chan struct{})}
	s.flows.Store(&map[int64]*flowState{})
	s.goBackground(s.heartbeats)
	return s, nil
}

// InstanceID returns the name of this instance in the live sets.
func (s *TokenService) InstanceID() string { return s.cfg.instanceID }

// RequestToken implements runtime.TokenService. While the flow's lease has
// tokens it answers with one atomic add and no round trip, starting a
// background refill when the lease runs low. With the lease empty it waits
// for Redis, at most Timeout; if Redis fails or is known to be down it
// answers TokenFail so the runtime applies the rule locally.
//
// prioritized is not used: a call over the budget is blocked, not queued for
// the next window.
func (s *TokenService) RequestToken(rule *runtime.FlowRule, acquire int64, _ bool) runtime.TokenResult {
	f := s.flow(rule.ClusterConfig.FlowID)
	if l := f.lease.Load(); l != nil {
		if left, ok := l.take(acquire); ok {
			if left <= l.lowWater.Load() && l.remaining.Load() > 0 && f.inflight.Load() == nil && !s.health.down.Load() {
				s.startRefill(f, requestFor(rule, 1))
			}
			return runtime.TokenResult{Status: runtime.TokenOK}
		}
		if l.spent(acquire) {
			return runtime.TokenResult{Status: runtime.TokenBlocked}
		}
	}
	return s.requestSlow(f, rule, acquire)
}

// requestSlow waits for a refill, within Timeout, when the lease cannot
// serve the call.
func (s *TokenService) requestSlow(f *flowState, rule *runtime.FlowRule, acquire int64) runtime.TokenResult {
	if s.health.down.Load() || s.closed.Load() {
		return s.fallback()
	}
	timer := time.NewTimer(s.cfg.timeout)
	defer timer.Stop()
	req := requestFor(rule, acquire)
	for {
		r := s.startRefill(f, req)
		select {
		case <-r.done:
		case <-timer.C:
			// Too slow counts as down, even before the refill gives up: the
			// next callers must not each wait out the timeout again.
			s.failed(errTimeout)
			return s.fallback()
		}
		if r.err != nil {
			return s.fallback()
		}
		l := f.lease.Load()
		if _, ok := l.take(acquire); ok {
			return runtime.TokenResult{Status: runtime.TokenOK}
		}
		if l.spent(acquire) {
			return runtime.TokenResult{Status: runtime.TokenBlocked}
		}
		// Other callers took the refill's tokens first: ask again.
	}
}

// errTimeout is logged when Redis did not answer within the timeout.
var errTimeout = errors.New("no answer from Redis within the timeout")

func (s *TokenService) fallback() runtime.TokenResult {
	s.fallbacks.Add(1)
	return runtime.TokenResult{Status: runtime.TokenFail}
}

// startRefill returns the flow's refill in flight, starting one for req if
// none runs.
func (s *TokenService) startRefill(f *flowState, req request) *refill {
	for {
		if r := f.inflight.Load(); r != nil {
			return r
		}
		r := &refill{done: make(chan struct{})}
		if f.inflight.CompareAndSwap(nil, r) {
			go s.runRefill(f, req, r)
			return r
		}
	}
}

// runRefill asks Redis for a lease and installs it. It runs on its own
// goroutine so that a caller's wait is bounded by its timer; the script run
// itself is bounded by Timeout whatever the client does with the context
// (boundedCall), so a stalled Redis never keeps the refill in flight longer.
func (s *TokenService) runRefill(f *flowState, req request, r *refill) {
	sent := time.Now()
	var g grant
	err := f.call.do(s.cfg.timeout, nil, func(ctx context.Context) error {
		var err error
		g, err = s.runAcquire(ctx, f, req)
		return err
	})
	if err != nil {
		s.failures.Add(1)
		s.failed(err)
		r.err = err
	} else {
		s.refills.Add(1)
		s.succeeded()
		f.install(g, sent)
	}
	f.inflight.Store(nil)
	close(r.done)
}

// flow returns the state of a FlowID, creating it on first use.
func (s *TokenService) flow(id int64) *flowState {
	if f, ok := (*s.flows.Load())[id]; ok {
		return f
	}
	s.flowsMu.Lock()
	defer s.flowsMu.Unlock()
	old := *s.flows.Load()
	if f, ok := old[id]; ok {
		return f
	}
	next := make(map[int64]*flowState, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	f := newFlowState(s.cfg.namespace, id)
	next[id] = f
	s.flows.Store(&next)
	return f
}

// Stats is a snapshot of a TokenService's counters.
type Stats struct {
	// Available is false while Redis is considered down.
	Available bool
	// Downs counts transitions to down (Redis failed or timed out).
	Downs int64
	// Ups counts transitions back up (a probe or a request got an answer).
	Ups int64
	// Fallbacks counts requests answered TokenFail, which the runtime
	// decided locally (or passed, without FallbackToLocalWhenFail).
	Fallbacks int64
	// Refills counts leases granted or refused by Redis (script runs that
	// got an answer); Failures counts script runs that did not.
	Refills, Failures int64
}

// Stats returns the service's counters.
func (s *TokenService) Stats() Stats {
	return Stats{
		Available: !s.health.down.Load(),
		Downs:     s.health.downs.Load(),
		Ups:       s.health.ups.Load(),
		Fallbacks: s.fallbacks.Load(),
		Refills:   s.refills.Load(),
		Failures:  s.failures.Load(),
	}
}

// goBackground runs fn on a goroutine Close waits for, unless Close has
// begun; it reports whether fn was started.
func (s *TokenService) goBackground(fn func()) bool {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.closed.Load() {
		return false
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		fn()
	}()
	return true
}

// Close stops the heartbeats and the probe, and removes this instance from
// the live sets so AvgLocal budgets shrink at once rather than after the
// heartbeat TTL. It returns within the close timeout (WithCloseTimeout,
// default 100 ms) whatever the client's options, even when Redis is stopped
// or never answers: the background loops stop waiting for Redis at once, and
// the removal gets the close timeout; if Redis has not answered by then,
// Close returns an error saying so and the entries expire after the
// heartbeat TTL. A round trip still inside the client then ends by the
// client's own timeouts or when the client is closed.
//
// Tokens already leased are still handed out until their window ends;
// requests that would need Redis answer TokenFail. It does not close the
// client. Calling it again does nothing.
func (s *TokenService) Close() error {
	s.bgMu.Lock()
	if s.closed.Load() {
		s.bgMu.Unlock()
		return nil
	}
	s.closed.Store(true)
	s.bgMu.Unlock()
	close(s.stop)
	s.bg.Wait()
	return s.deregister()
}
