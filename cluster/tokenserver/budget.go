package tokenserver

import (
	"sync"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// budget is one cluster flow rule in force on the server: the rule, the
// namespace it was loaded under (whose connected clients an AVG_LOCAL
// threshold counts) and its window.
type budget struct {
	rule      runtime.FlowRule
	namespace *namespace

	mu  sync.Mutex
	win *window
}

// threshold is the rule's budget per second across the cluster: Count for
// GLOBAL, Count times the namespace's connected clients for AVG_LOCAL,
// times exceedCount.
func (b *budget) threshold(exceedCount float64) float64 {
	count := b.rule.Count
	if b.rule.ClusterConfig.ThresholdType != runtime.Global {
		count *= float64(b.namespace.connected())
	}
	return count * exceedCount
}

// acquire decides one FLOW request as Sentinel's ClusterFlowChecker does:
// OK while the passes of the interval plus acquire stay within the
// threshold; for a prioritized call over it, SHOULD_WAIT when the next
// bucket can take it (and the waiting calls stay within maxOccupyRatio of
// the threshold); BLOCKED otherwise. remaining is the budget left after an
// OK, truncated.
func (b *budget) acquire(nowMs int64, acquire int64, prioritized bool, cfg *FlowConfig) (status runtime.TokenStatus, remaining, waitMs int32) {
	thr := b.threshold(cfg.ExceedCount)
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.win
	passQps := w.avg(nowMs, evPass)
	if next := thr - passQps - float64(acquire); next >= 0 {
		w.add(nowMs, evPass, acquire)
		w.add(nowMs, evPassRequest, 1)
		if prioritized {
			w.add(nowMs, evOccupiedPass, acquire)
		}
		return runtime.TokenOK, int32(next), 0
	}
	if prioritized && w.avg(nowMs, evWaiting) <= cfg.MaxOccupyRatio*thr {
		// The next bucket can take the call when the interval it will
		// close, less the oldest bucket it pushes out, stays within the
		// threshold with everything promised so far.
		if passQps+float64(acquire+w.occupied[evPass]-w.head(nowMs, evPass)) <= thr {
			w.occupy(acquire)
			w.add(nowMs, evWaiting, acquire)
			return runtime.TokenShouldWait, 0, int32(1000 / int64(len(w.buckets)))
		}
	}
	w.add(nowMs, evBlock, acquire)
	w.add(nowMs, evBlockRequest, 1)
	if prioritized {
		w.add(nowMs, evOccupiedBlock, acquire)
	}
	return runtime.TokenBlocked, 0, 0
}

// stats are a budget's counts per second over its interval, for the
// dashboard's metrics.
func (b *budget) stats(nowMs int64) (passQps, blockQps float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.win.avg(nowMs, evPass), b.win.avg(nowMs, evBlock)
}
