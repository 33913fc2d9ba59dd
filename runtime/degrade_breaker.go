package runtime

import (
	"math"
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// BreakerState is a circuit breaker's state.
type BreakerState int32

const (
	// StateClosed lets every call through and watches the outcomes.
	StateClosed BreakerState = iota
	// StateOpen blocks every call until the rule's TimeWindowSec has passed.
	StateOpen
	// StateHalfOpen has let one probe call through and blocks the rest until
	// the probe's outcome closes or re-opens the breaker.
	StateHalfOpen
)

// String returns CLOSED, OPEN or HALF_OPEN.
func (s BreakerState) String() string {
	switch s {
	case StateClosed:
		return "CLOSED"
	case StateOpen:
		return "OPEN"
	case StateHalfOpen:
		return "HALF_OPEN"
	}
	return "UNKNOWN"
}

// Counters of a breaker's window.
const (
	brTotal = iota // completed calls
	brBad          // slow calls or failed calls, by grade
	brCounters
)

// breaker enforces one degrade rule (Sentinel's CircuitBreaker).
type breaker struct {
	rule    DegradeRule // normalized
	blocked *BlockError
	window  *leaparray.Window
	// secondShift is s when window's bucket is 2^s second-level buckets
	// wide (s is 1 for Sentinel's default statIntervalMs of 1000 ms), so
	// that Exit addresses it by the call's second-level window ID, id>>s
	// (a floor division, as window IDs are), without computing its own;
	// -1 for other widths.
	secondShift int8

	_           [63]byte
	state       atomic.Int32
	nextRetryMs atomic.Int64
	// settledID is the window ID in which a judgement found at least
	// MinRequestAmount calls and the threshold not exceeded. Within that
	// window a good call can only lower the measure, so it needs no new
	// judgement; see recordAndJudge.
	settledID atomic.Int64
	_         [40]byte
}

func newBreaker(r DegradeRule, index int) *breaker {
	// One bucket spanning StatIntervalMs, as Sentinel's breakers keep
	// (sampleCount 1): the breaker judges the calls of the current fixed
	// interval, and a new interval starts from nothing.
	// One allocation for the breaker and its error, as for a flow check;
	// the error is formatted when first read.
	mem := new(struct {
		b  breaker
		be BlockError
	})
	b := &mem.b
	b.rule, b.blocked = r, &mem.be
	mem.be.initLazy(BlockTypeDegrade, &b.rule, index)
	b.window = leaparray.MustNew(leaparray.Config{IntervalMs: int64(r.StatIntervalMs), Buckets: 1, Counters: brCounters})
	b.secondShift = -1
	for sh := range 32 {
		if leaparray.SecondWidthMs<<sh == b.window.WidthMs() {
			b.secondShift = int8(sh)
		}
	}
	b.settledID.Store(unsettled)
	return b
}

// unsettled is a settledID no window has.
const unsettled = math.MinInt64

// State returns the current state.
func (b *breaker) State() BreakerState { return BreakerState(b.state.Load()) }

// tryPass decides whether a call may proceed; probe is true when the call is
// the single probe that moved the breaker to HALF_OPEN.
func (b *breaker) tryPass(nowMs int64) (pass, probe bool) {
	switch BreakerState(b.state.Load()) {
	case StateClosed:
		return true, false
	case StateOpen:
		if nowMs >= b.nextRetryMs.Load() && b.transition(StateOpen, StateHalfOpen, 0, nowMs) {
			return true, true
		}
	}
	return false, false
}

// abandonProbe re-opens a HALF_OPEN breaker whose probe was blocked by a
// later check and so will never report an outcome. The retry time stays
// the one that has passed, as in Sentinel: the probe tested nothing, so the
// next call may probe at once.
func (b *breaker) abandonProbe(nowMs int64) { b.transition(StateHalfOpen, StateOpen, 1, nowMs) }

// isBad says whether a call with this outcome counts against the breaker.
func (b *breaker) isBad(rtMs int64, failed bool) bool {
	if b.rule.Grade == DegradeSlowRatio {
		return float64(rtMs) > b.rule.Count
	}
	return failed
}

// recordAndJudge counts a finished call through c, a cursor on the
// breaker's window positioned at the call's end (made under Pin), and
// reports whether the call calls for a state change: the probe of a
// HALF_OPEN breaker always decides, and a CLOSED breaker opens when its
// window is over the threshold. It only writes counters and reads, so it
// can run pinned; change makes the move.
//
// Sentinel judges a CLOSED breaker after every call. A good call, though,
// can only push the measure over the threshold if the window's calls were
// below MinRequestAmount at the last judgement or buckets have expired since
// (both change the window ID the judgement settled on): otherwise it only
// adds to the total. So once a judgement in the current window has settled,
// good calls skip the window sums; bad calls are always judged. The
// decisions are Sentinel's, at a fraction of the cost per good call.
func (b *breaker) recordAndJudge(c leaparray.Cursor, bad, probe bool) bool {
	if !c.TryAdd(brTotal, 1) { // TryAdd inlines: the common case costs no call
		c.Add(brTotal, 1)
	}
	if bad && !c.TryAdd(brBad, 1) {
		c.Add(brBad, 1)
	}
	switch BreakerState(b.state.Load()) {
	case StateHalfOpen:
		return probe // only the probe's outcome decides
	case StateClosed:
		if !bad && b.settledID.Load() == c.ID() {
			return false
		}
		_, over, settled := b.overThreshold(c)
		if settled && b.settledID.Load() != c.ID() {
			b.settledID.Store(c.ID())
		}
		return over
	}
	return false
}

// recordSettled is recordAndJudge's most common case alone, with few
// variables to save: a good call to a CLOSED breaker whose judgement has
// settled in the cursor's window only adds to the total. It reports false,
// having written nothing, in every other case, which the caller then hands
// to recordAndJudge.
func (b *breaker) recordSettled(c leaparray.Cursor) bool {
	return b.settledID.Load() == c.ID() && b.state.Load() == int32(StateClosed) && c.TryAdd(brTotal, 1)
}

// overThreshold returns the rule's measure over the window and whether it
// exceeds the threshold; settled is true when enough calls were seen and the
// threshold was not exceeded.
func (b *breaker) overThreshold(c leaparray.Cursor) (value float64, over, settled bool) {
	total, bad := c.CountPair(brTotal, brBad)
	if total < int64(b.rule.MinRequestAmount) || total == 0 {
		return 0, false, false
	}
	switch b.rule.Grade {
	case DegradeSlowRatio:
		value = float64(bad) / float64(total)
		over = value > b.rule.SlowRatioThreshold || (value == 1 && b.rule.SlowRatioThreshold == 1)
	case DegradeErrorRatio:
		value = float64(bad) / float64(total)
		over = value > b.rule.Count
	default: // DegradeErrorCount
		value = float64(bad)
		over = value > b.rule.Count
	}
	return value, over, !over
}

// change performs the state change recordAndJudge asked for, if the state is
// still the one it saw: a HALF_OPEN breaker follows its probe, a CLOSED one
// opens with the measure that crossed the threshold.
func (b *breaker) change(nowMs, rtMs int64, failed bool) {
	switch BreakerState(b.state.Load()) {
	case StateHalfOpen:
		if b.isBad(rtMs, failed) {
			b.open(StateHalfOpen, 1, nowMs)
		} else if b.transition(StateHalfOpen, StateClosed, 0, nowMs) {
			b.window.Reset()
			b.settledID.Store(unsettled)
		}
	case StateClosed:
		if value, over, _ := b.overThreshold(b.window.At(nowMs)); over {
			b.open(StateClosed, value, nowMs)
		}
	}
}

func (b *breaker) open(from BreakerState, value float64, nowMs int64) {
	// Set the retry time before the state flips, so no caller sees OPEN with
	// a stale retry time and probes at once.
	b.nextRetryMs.Store(satAdd(nowMs, satMul(int64(b.rule.TimeWindowSec), 1000)))
	b.transition(from, StateOpen, value, nowMs)
}

// transition moves the breaker from one state to another if it is still in
// from, notifying listeners; it reports whether this caller made the move.
func (b *breaker) transition(from, to BreakerState, value float64, nowMs int64) bool {
	if !b.state.CompareAndSwap(int32(from), int32(to)) {
		return false
	}
	notifyBreaker(BreakerEvent{Resource: b.rule.Resource, Rule: b.rule, From: from, To: to, Value: value, AtMs: nowMs})
	return true
}
