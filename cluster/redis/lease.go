package redis

import (
	"math"
	"strconv"
	"sync/atomic"
	"time"
)

// expiredTokens is what an expired lease's token count is set to: so far
// below zero that no number of racing decrements and give-backs brings it
// back to a usable value.
const expiredTokens = math.MinInt64 / 4

// lease is the tokens this instance holds of one Redis window of a flow.
// Calls take tokens with one atomic add; a timer expires the lease when its
// window ends, because its tokens belong to that window's budget only.
type lease struct {
	// tokens left to hand out; expiredTokens once the window is over.
	tokens atomic.Int64
	// window is the Redis window index the tokens belong to.
	window int64
	// remaining is the window's budget left in Redis (beyond this lease)
	// as of the last grant: a call that needs more than remaining and finds
	// the lease empty is blocked without a round trip.
	remaining atomic.Int64
	// lowWater is the token count at which a refill starts in the
	// background, so busy callers rarely find the lease empty.
	lowWater atomic.Int64
	timer    *time.Timer
	// ends is when the window ends, by this host's monotonic clock (at or
	// before the Redis window's end). The timer expires the lease then,
	// but a timer's function runs when the scheduler gets to it, which on a
	// loaded host can be milliseconds later; spent checks ends itself so a
	// late timer never lets the old window's "budget spent" block calls of
	// the next window. Nanoseconds since monoBase: reading only the
	// monotonic clock is cheaper than time.Now.
	ends int64
}

// monoBase is the origin of lease.ends.
var monoBase = time.Now()

// monoNow is the monotonic clock in nanoseconds since monoBase.
func monoNow() int64 { return int64(time.Since(monoBase)) }

// newLease starts a lease of g's tokens that expires after ttl.
func newLease(g grant, ttl time.Duration) *lease {
	l := &lease{window: g.window, ends: monoNow() + int64(ttl)}
	l.tokens.Store(g.tokens)
	l.remaining.Store(g.remaining)
	l.lowWater.Store(g.tokens / 4)
	if ttl <= 0 {
		l.expire()
		return l
	}
	l.timer = time.AfterFunc(ttl, l.expire)
	return l
}

// take takes acquire tokens, reporting whether there were enough.
func (l *lease) take(acquire int64) (left int64, ok bool) {
	left = l.tokens.Add(-acquire)
	if left >= 0 {
		return left, true
	}
	l.tokens.Add(acquire) // not enough: give back what this call took
	return left, false
}

// add puts the tokens of a later grant of the same window into the lease.
func (l *lease) add(g grant) {
	l.tokens.Add(g.tokens)
	l.remaining.Store(g.remaining)
	l.lowWater.Store(g.tokens / 4)
}

func (l *lease) expire() { l.tokens.Store(expiredTokens) }

func (l *lease) expired() bool { return l.tokens.Load() < expiredTokens/2 }

// spent reports whether the window's budget cannot serve acquire more
// tokens: the lease is live but empty and Redis had less than acquire left.
// It reads the clock (only on this path, where the call is about to be
// blocked, never on the pass path): past the window's end the lease is
// expired whether or not its timer has run yet, and the call goes to Redis
// for the new window instead of being blocked for the old one.
func (l *lease) spent(acquire int64) bool {
	if l.expired() || l.remaining.Load() >= acquire {
		return false
	}
	if monoNow() >= l.ends {
		l.expire()
		return false
	}
	return true
}

// refill is one acquire script run in flight for a flow; callers that need
// its result wait on done.
type refill struct {
	done chan struct{}
	err  error // set before done is closed
}

// flowState is this instance's view of one FlowID.
type flowState struct {
	id   int64
	keys []string // window hash, live set
	// lease is the current lease; nil before the first grant.
	lease atomic.Pointer[lease]
	// inflight is the refill running for the flow, if any: at most one runs
	// at a time, and concurrent callers share it.
	inflight atomic.Pointer[refill]
	// call bounds the refill's script run (see boundedCall).
	call boundedCall
}

func newFlowState(namespace string, id int64) *flowState {
	prefix := namespace + ":{" + strconv.FormatInt(id, 10) + "}:"
	return &flowState{id: id, keys: []string{prefix + "window", prefix + "live"}}
}

// install makes g's tokens available. sent is when the request left; the
// lease expires toEndMs after it, which is at or before the Redis window's
// end whatever the network delay, so tokens are not used in the next
// window (up to the timer's own lateness, typically well under 1 ms).
func (f *flowState) install(g grant, sent time.Time) {
	cur := f.lease.Load()
	if cur != nil && cur.window == g.window && !cur.expired() {
		cur.add(g)
		return
	}
	next := newLease(g, time.Duration(g.toEndMs)*time.Millisecond-time.Since(sent))
	f.lease.Store(next)
	if cur != nil && cur.timer != nil && cur.timer.Stop() {
		cur.expire()
	}
}
