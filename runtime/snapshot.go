package runtime

// Snapshot is a resource's statistics over the last second (the second-level
// window ending now), for metrics and examples.
type Snapshot struct {
	// Resource is the resource name.
	Resource string
	// Pass, Block, Success and Error count calls (times their acquire count)
	// admitted, blocked, completed and completed with a traced error.
	Pass, Block, Success, Error int64
	// AvgRTMs is the mean response time of completed calls in milliseconds.
	AvgRTMs float64
	// Concurrency is the number of calls in flight right now.
	Concurrency int64
}

// Snapshot reads the resource's statistics at the Clock's current time.
func (r *Resource) Snapshot() Snapshot {
	nowMs := nowNanos() / 1e6
	w := r.stats.second
	s := Snapshot{
		Resource:    r.name,
		Pass:        r.stats.passCount(nowMs),
		Block:       w.Count(nowMs, evBlock),
		Success:     w.Count(nowMs, evSuccess),
		Error:       w.Count(nowMs, evError),
		Concurrency: r.stats.inFlight.Load(),
	}
	if s.Success > 0 {
		s.AvgRTMs = float64(w.Count(nowMs, evRT)) / float64(s.Success)
	}
	return s
}

// BreakerStates returns the state of each circuit breaker of the resource, in
// the order of its degrade rules.
func (r *Resource) BreakerStates() []BreakerState {
	rs := r.rules.Load()
	if rs == nil {
		return nil
	}
	out := make([]BreakerState, len(rs.degrade))
	for i, b := range rs.degrade {
		out[i] = b.State()
	}
	return out
}
