package runtime

import (
	"math"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// verdict is the outcome of one flow check.
type verdict uint8

const (
	verdictPass     verdict = iota
	verdictBlock            // rejected
	verdictWaited           // admitted after sleeping (rate limiter)
	verdictBorrowed         // admitted after sleeping into a borrowed window
)

// occupyTimeoutMs bounds how long a prioritized call may wait for the next
// window (Sentinel's default occupy timeout).
const occupyTimeoutMs = 500

// flowCheck enforces one flow rule. One concrete type covers every grade,
// strategy and behaviour; check dispatches with a switch on fields fixed at
// load time, so nothing is built per call.
type flowCheck struct {
	rule    FlowRule // normalized
	blocked *BlockError
	// ref is the statistics a relate rule reads (its RefResource's) or,
	// for a chain rule, those of calls through its entrance. One field
	// serves both: a rule has one strategy.
	ref *node
	// own is the rule's private window when its StatIntervalMs is not the
	// default; the resource adds its passes to it.
	own *leaparray.Window
	// warm is the token bucket of the warm-up behaviours.
	warm *warmUp
	// pacer is the rate limiter's schedule.
	pacer *pacer
	// limit is Count rounded down, for QPS checks on the second-level
	// window: counts are whole, so n <= Count exactly when n <= floor(Count),
	// and the comparison needs no conversion to float per call.
	limit int64
	// origin is the node of the origin an appOne rule names.
	origin *node
	// app says whose calls the rule counts (LimitApp).
	app uint8
	// exact is true for a concurrency rule that counts the resource's own
	// calls (direct or chain strategy): Entry reserves a place in flight for
	// it before comparing (see reserve), instead of calling check.
	exact bool
	// direct is true for the common rule, a local QPS reject rule on the
	// resource's own second-level window, which Entry decides pinned from
	// the window's cached bound, without calling check.
	direct bool
}

func newFlowCheck(r FlowRule, index int) *flowCheck {
	// One allocation for the check and its error, which live and die
	// together: a first load of 100k rules makes 100k of each.
	mem := new(struct {
		f  flowCheck
		be BlockError
	})
	f := &mem.f
	f.rule, f.blocked = r, &mem.be
	mem.be.initLazy(BlockTypeFlow, &f.rule, index) // formatted when read
	if r.StatIntervalMs != DefaultStatIntervalMs {
		n, _ := bucketsFor(r.StatIntervalMs, flowBucketMs) // validated
		f.own = leaparray.MustNew(leaparray.Config{IntervalMs: int64(r.StatIntervalMs), Buckets: n, Counters: 1})
	}
	if r.ControlBehavior == BehaviorWarmUp || r.ControlBehavior == BehaviorWarmUpRateLimiter {
		f.warm = newWarmUp(r.Count, r.WarmUpPeriodSec, r.ColdFactor)
	}
	f.limit = countLimit(r.Count)
	f.app = appOf(r.LimitApp)
	f.exact = r.Grade == FlowGradeConcurrency && r.Strategy != StrategyRelate && !r.ClusterMode
	f.direct = r.Grade == FlowGradeQPS && r.Strategy == StrategyDirect && r.ControlBehavior == BehaviorReject && !r.ClusterMode && f.own == nil &&
		f.app == appAll
	if r.ControlBehavior == BehaviorRateLimiter || r.ControlBehavior == BehaviorWarmUpRateLimiter {
		f.pacer = &pacer{wholeMs: pacesInWholeMs(r)}
		f.pacer.latestNs.Store(math.MinInt64 / 2)
	}
	return f
}

// countLimit is floor(count) as an integer, capped far below overflow
// (count is finite and not negative: validated).
func countLimit(count float64) int64 {
	const maxLimit = 1 << 62
	if count >= maxLimit {
		return maxLimit
	}
	return int64(math.Floor(count))
}

// applies reports whether the rule counts call e, by the origin node and
// flags guard recorded in it. This is Sentinel's
// FlowRuleChecker.selectNodeByRequesterAndStrategy deciding between a node
// and none.
func (f *flowCheck) applies(e *Entry) bool {
	switch f.app {
	case appOne:
		return e.origin() != nil && e.origin() == f.origin
	case appOther:
		return e.guard&guardOther != 0
	}
	return true
}

// source returns the statistics the rule reads for this call, or nil when the
// rule does not apply to it (a chain rule for another entrance). from is the
// call's origin node: a direct rule for some callers counts that origin's
// own calls, while relate and chain rules read what they read for every
// caller, as in Sentinel.
func (f *flowCheck) source(r *Resource, via, from *node) *node {
	switch f.rule.Strategy {
	case StrategyRelate:
		return f.ref
	case StrategyChain:
		if via == f.ref {
			return via
		}
		return nil // the call came through another entrance, or none
	}
	if f.app != appAll {
		return from
	}
	return r.stats
}

// check decides one call against the rule.
func (f *flowCheck) check(r *Resource, via, from *node, nowNs, secondID, acquire int64, prioritized bool) verdict {
	src := f.source(r, via, from)
	if src == nil {
		return verdictPass
	}
	if f.rule.ClusterMode {
		if v, decided := f.askCluster(acquire, prioritized); decided {
			return v
		}
		// The token service failed: the rule applies locally (below).
	}
	nowMs := nowNs / 1e6
	if f.rule.Grade == FlowGradeConcurrency {
		// A relate rule reads another resource's calls, which this call
		// does not join: it compares that count and reserves nothing.
		if float64(src.inFlight.Load()+acquire) > f.rule.Count {
			return verdictBlock
		}
		return verdictPass
	}
	switch f.rule.ControlBehavior {
	case BehaviorWarmUp:
		if f.warm.allows(nowMs, f.passRate(src, nowMs), src.previousSecondPass(nowMs), acquire) {
			return verdictPass
		}
		return verdictBlock
	case BehaviorRateLimiter:
		return f.pacer.admit(nowNs, acquire, f.rule.Count, f.rule.MaxQueueingTimeMs, float64(acquire)*1000/f.rule.Count)
	case BehaviorWarmUpRateLimiter:
		rate := f.warm.currentRate(nowMs, src.previousSecondPass(nowMs))
		return f.pacer.admit(nowNs, acquire, rate, f.rule.MaxQueueingTimeMs, float64(acquire)/rate*1000)
	}
	if f.own != nil {
		// A longer (or shorter) window holds Count per second times its span.
		limit := f.rule.Count * float64(f.rule.StatIntervalMs) / 1000
		if float64(f.own.Count(nowMs, 0)+acquire) <= limit {
			return verdictPass
		}
		return verdictBlock
	}
	if src.fits(secondID, acquire, f.limit) {
		return verdictPass
	}
	if prioritized {
		if wait := tryOccupyNext(src.second, nowMs, acquire, f.rule.Count); wait < occupyTimeoutMs {
			if src.second.Borrow(nowMs, nowMs+wait, acquire) {
				sleep(time.Duration(wait) * time.Millisecond)
				return verdictBorrowed
			}
		}
	}
	return verdictBlock
}

// passRate is the pass count of the rule's window in calls per second.
func (f *flowCheck) passRate(src *node, nowMs int64) float64 {
	if f.own != nil {
		return float64(f.own.Count(nowMs, 0)) * 1000 / float64(f.rule.StatIntervalMs)
	}
	return float64(src.passCount(nowMs))
}

// tryOccupyNext returns how long a call must wait (ms) for a bucket of the
// window to expire and leave room for acquire more passes within count per
// second, or occupyTimeoutMs when no bucket within the timeout frees enough.
// This is Sentinel's StatisticNode.tryOccupyNext.
func tryOccupyNext(w *leaparray.Window, nowMs, acquire int64, count float64) int64 {
	maxCount := count * float64(w.IntervalMs()) / 1000
	borrowed := float64(w.Waiting(nowMs))
	if borrowed >= maxCount {
		return occupyTimeoutMs
	}
	width := w.WidthMs()
	offset := nowMs - w.WindowStart(nowMs)
	pass := float64(w.Count(nowMs, evPass) + w.BorrowedIn(nowMs))
	// Walk the buckets from the oldest: when the oldest expires its passes
	// leave the window.
	oldest := w.WindowStart(nowMs) + width - w.IntervalMs()
	for i := int64(0); oldest < nowMs; i++ {
		wait := i*width + width - offset
		if wait >= occupyTimeoutMs {
			break
		}
		inBucket := float64(w.BucketCount(oldest, evPass) + w.BorrowedAt(oldest))
		if pass+borrowed+float64(acquire)-inBucket <= maxCount {
			return wait
		}
		oldest += width
		pass -= inBucket
	}
	return occupyTimeoutMs
}
