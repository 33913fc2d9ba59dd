package runtime

import (
	"math"
	"sync/atomic"
)

// warmUp is the token bucket behind the warm-up behaviours, following
// Sentinel's WarmUpController (itself Guava's SmoothWarmingUp): tokens pile up
// while traffic is light, and the more tokens are stored the lower the
// allowed rate, from Count/ColdFactor when full to Count at the warning level.
// Traffic spends tokens once per second, so after a quiet period the limit
// climbs back to Count over about WarmUpPeriodSec.
type warmUp struct {
	count      float64
	coldFactor float64
	warning    int64 // stored tokens below which the full rate applies
	maxTokens  int64
	slope      float64 // extra seconds per call for each token above warning

	stored       atomic.Int64
	lastFilledMs atomic.Int64
}

func newWarmUp(count float64, periodSec, coldFactor int) *warmUp {
	cf := float64(coldFactor)
	w := &warmUp{count: count, coldFactor: cf}
	w.warning = int64(float64(periodSec)*count) / int64(coldFactor-1)
	w.maxTokens = w.warning + int64(2*float64(periodSec)*count/(1+cf))
	if span := w.maxTokens - w.warning; span > 0 && count > 0 {
		w.slope = (cf - 1) / count / float64(span)
	}
	// Start cold, as after a long quiet period.
	w.stored.Store(w.maxTokens)
	w.lastFilledMs.Store(math.MinInt64 / 4)
	return w
}

// sync refills tokens for the seconds elapsed since the last refill and
// spends the previous second's passes, once per second.
func (w *warmUp) sync(nowMs, previousPass int64) {
	second := nowMs - nowMs%1000
	last := w.lastFilledMs.Load()
	if second <= last {
		return
	}
	old := w.stored.Load()
	refilled := old
	// "Light" is below (int)count / coldFactor in whole numbers, as
	// Sentinel computes it: for count 10 and cold factor 3, under 3 calls.
	if old < w.warning || (old > w.warning && previousPass < int64(w.count)/int64(w.coldFactor)) {
		// Light traffic: tokens accumulate at Count per second.
		refilled = int64(math.Min(float64(old)+float64(second-last)*w.count/1000, float64(w.maxTokens)))
	}
	refilled = min(refilled, w.maxTokens)
	if !w.stored.CompareAndSwap(old, refilled) {
		return // another caller refilled this second
	}
	if w.stored.Add(-previousPass) < 0 {
		w.stored.Store(0)
	}
	w.lastFilledMs.Store(second)
}

// currentRate is the rate allowed now, in calls per second.
func (w *warmUp) currentRate(nowMs, previousPass int64) float64 {
	w.sync(nowMs, previousPass)
	stored := w.stored.Load()
	if stored < w.warning {
		return w.count
	}
	return math.Nextafter(1/(float64(stored-w.warning)*w.slope+1/w.count), math.Inf(1))
}

// allows reports whether acquire more passes fit under the current rate.
func (w *warmUp) allows(nowMs int64, passRate float64, previousPass, acquire int64) bool {
	return passRate+float64(acquire) <= w.currentRate(nowMs, previousPass)
}
