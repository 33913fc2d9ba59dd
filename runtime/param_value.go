package runtime

import (
	"math"
	"sync/atomic"
)

// paramValue is the state of one value of one rule: a fixed size whatever
// the rule (32 bytes beside the table's node, which is 80 bytes in all).
type paramValue struct {
	// count is what the value may still spend in the current period
	// (reject), or its calls in flight (concurrency); one word serves both,
	// since a rule has one algorithm.
	count atomic.Int64
	// stamp is when tokens were last added (reject) or when the value last
	// passed (rate limiter), in ms of the Clock.
	stamp atomic.Int64
	// limit is the value's threshold: its item's Count, or the rule's.
	limit   int64
	blocked atomic.Pointer[valueBlock]
}

// neverPassed is the stamp of a value the rate limiter has not let through:
// far enough in the past that any cost puts its next slot before now, and
// far enough from the bottom that adding a cost cannot wrap.
const neverPassed = math.MinInt64 / 4

// unrecorded marks what Sentinel's two maps of a token-bucket rule do not
// hold yet for a value: its stamp until a call reaches the bucket
// (timeCounters has no entry), its count until that call has stored its
// tokens (tokenCounters has none). A value refused before the bucket is
// consulted (limit 0, acquire above limit+burst) stays unrecorded, so its
// refills are timed from the first call that reaches the bucket.
const unrecorded = math.MinInt64

// init sets up a value first seen at nowMs under mode. Token bucket: not
// recorded; the first call that reaches the bucket records it full and
// takes its tokens, as Sentinel's first sight of a value does. Rate
// limiter: no pass yet. Concurrency: no call in flight.
func (v *paramValue) init(mode paramMode, limit int64) {
	v.limit = limit
	switch mode {
	case paramReject:
		v.count.Store(unrecorded)
		v.stamp.Store(unrecorded)
	case paramThrottle:
		v.stamp.Store(neverPassed)
	}
}

// passTokens is Sentinel's ParamFlowChecker.passDefaultLocalCheck: a bucket
// of limit+burst tokens refilled only once a whole duration has passed
// since the last refill, by passTime·limit/duration, capped at the bucket's
// size. The two words are updated as Sentinel updates its two maps: a CAS
// on the tokens, then a plain store of the refill time, retried on a lost
// CAS.
func (r *paramRule) passTokens(v *paramValue, nowMs, acquire int64) bool {
	limit := v.limit
	if limit == 0 {
		return false
	}
	maxCount := satAdd(limit, r.burst)
	if acquire > maxCount {
		return false
	}
	for {
		last := v.stamp.Load()
		if last == unrecorded {
			// First sight (timeCounters.putIfAbsent): the winner fills
			// the bucket less its tokens; a loser goes on with the
			// winner's stamp and waits for the tokens below.
			if v.stamp.CompareAndSwap(unrecorded, nowMs) {
				v.count.CompareAndSwap(unrecorded, maxCount-acquire)
				return true
			}
			continue
		}
		passTime := nowMs - last
		rest := v.count.Load()
		switch {
		case rest == unrecorded && passTime > r.durationMs:
			// The first sight's winner has not stored its tokens a whole
			// duration later: Sentinel's tokenCounters.putIfAbsent in
			// the refill branch fills the bucket for this call.
			if v.count.CompareAndSwap(unrecorded, maxCount-acquire) {
				v.stamp.Store(nowMs)
				return true
			}
			continue
		case rest == unrecorded:
			// The winner is storing its tokens: retry, as Sentinel does
			// when tokenCounters has no entry yet.
		case passTime > r.durationMs:
			add := satMul(passTime, limit) / r.durationMs
			next := rest + add - acquire
			if satAdd(add, rest) > maxCount {
				next = maxCount - acquire
			}
			if next < 0 {
				return false
			}
			if v.count.CompareAndSwap(rest, next) {
				v.stamp.Store(nowMs)
				return true
			}
		default:
			if rest-acquire < 0 {
				return false
			}
			if v.count.CompareAndSwap(rest, rest-acquire) {
				return true
			}
		}
		nowMs = yield()
	}
}

// maxCostMs bounds a rate-limiter spacing so stamps cannot overflow.
const maxCostMs = 1 << 60

// passThrottle is Sentinel's ParamFlowChecker.passThrottleLocalCheck: calls
// of one value spaced round(1000·acquire·durationInSec/limit) ms apart; a
// call whose slot is less than MaxQueueingTimeMs away waits for it (through
// the Clock), a later one is refused. It returns the time after any wait.
func (r *paramRule) passThrottle(v *paramValue, nowMs, acquire int64) (bool, int64) {
	limit := v.limit
	if limit == 0 {
		return false, nowMs
	}
	c := math.Round(1000 * float64(acquire) * float64(r.rule.DurationInSec) / float64(limit))
	cost := int64(min(c, maxCostMs))
	for {
		// A value never passed has stamp neverPassed, so its slot is long
		// past and it passes, as Sentinel's first sight of a value does.
		last := v.stamp.Load()
		expected := last + cost
		if expected > nowMs && expected-nowMs >= r.maxQueueMs {
			return false, nowMs
		}
		if v.stamp.CompareAndSwap(last, nowMs) {
			if wait := expected - nowMs; wait > 0 {
				v.stamp.Store(expected)
				nowMs = sleepMs(wait)
			}
			return true, nowMs
		}
		nowMs = yield()
	}
}

// admitInFlight counts one more call in flight unless that exceeds the
// value's limit (Sentinel's ++threadCount <= threshold). Increment then
// check makes two racing calls unable to both take the last place.
func (v *paramValue) admitInFlight() bool {
	if v.count.Add(1) > v.limit {
		v.count.Add(-1)
		return false
	}
	return true
}
