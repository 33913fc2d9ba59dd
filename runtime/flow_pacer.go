package runtime

import (
	"math"
	"sync/atomic"
	"time"
)

// pacer is the rate limiter's schedule: calls pass at most one per
// cost interval, queueing for their slot (Sentinel's ThrottlingController
// and WarmUpRateLimiterController).
type pacer struct {
	_        [64]byte
	latestNs atomic.Int64
	// wholeMs schedules in whole milliseconds, as Sentinel does where it
	// does: the clock read to the millisecond and each call's cost rounded
	// to one. Otherwise the schedule is kept in nanoseconds.
	wholeMs bool
	_       [55]byte
}

// pacesInWholeMs says whether Sentinel paces rule r in whole milliseconds:
// the warm-up rate limiter always; the rate limiter when 1000 is a multiple
// of its rounded count and the count is at most 1000 per second (else its
// spacing is not a whole number of milliseconds, and Sentinel uses
// nanoseconds).
func pacesInWholeMs(r FlowRule) bool {
	if r.ControlBehavior == BehaviorWarmUpRateLimiter {
		return true
	}
	rounded := int64(math.Round(r.Count))
	return rounded > 0 && 1000%rounded == 0 && r.Count <= 1000
}

// admit decides one call at rate calls per second; costMs is the call's
// spacing in milliseconds, computed as Sentinel computes it for this
// behaviour, used when the schedule is in whole milliseconds.
func (p *pacer) admit(nowNs, acquire int64, rate float64, maxQueueMs int, costMs float64) verdict {
	if rate <= 0 {
		return verdictBlock
	}
	cost := int64(math.Round(float64(acquire) * 1e9 / rate))
	if p.wholeMs {
		nowNs -= nowNs % 1e6
		cost = int64(math.Round(costMs)) * 1e6
	}
	maxWait := satMul(int64(maxQueueMs), 1e6)
	latest := p.latestNs.Load()
	if latest+cost <= nowNs {
		// On schedule: pass now. Racing callers may both take this slot,
		// which Sentinel accepts too.
		p.latestNs.Store(nowNs)
		return verdictPass
	}
	if latest+cost-nowNs > maxWait {
		return verdictBlock
	}
	scheduled := p.latestNs.Add(cost)
	wait := scheduled - nowNs
	if wait > maxWait {
		p.latestNs.Add(-cost)
		return verdictBlock
	}
	if wait > 0 {
		sleep(time.Duration(wait))
	}
	return verdictWaited
}
