package runtime

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
)

// DefaultMaxQueueingTime is the longest wait a rate limiter's rule may
// impose (MaxQueueingTimeMs of a flow or hot-parameter rule) unless
// SetMaxQueueingTime says otherwise. A caller parked longer than its own
// deadline (HTTP clients commonly give up within 10 to 30 s) is of no use
// to anyone, and a mistyped wait would park every caller of the resource
// for as long as it says.
const DefaultMaxQueueingTime = 10 * time.Second

// maxQueueingMs is the bound in force, in ms; 0 means the default.
var maxQueueingMs atomic.Int64

// SetMaxQueueingTime sets the longest MaxQueueingTimeMs a flow or
// hot-parameter rule may have, and returns the previous bound: a load, a
// rules document or a dashboard push with a rule above it is refused
// naming that rule. d <= 0 restores DefaultMaxQueueingTime; the largest
// Duration (math.MaxInt64) lifts the bound. Rules already in force are not
// checked again.
func SetMaxQueueingTime(d time.Duration) (previous time.Duration) {
	previous = MaxQueueingTime()
	ms := d.Milliseconds()
	switch {
	case d <= 0:
		ms = 0
	case d == math.MaxInt64:
		ms = math.MaxInt64
	case ms == 0:
		ms = 1
	}
	maxQueueingMs.Store(ms)
	return previous
}

// MaxQueueingTime is the longest MaxQueueingTimeMs a rule may have now.
func MaxQueueingTime() time.Duration {
	ms := maxQueueingMs.Load()
	if ms == 0 {
		return DefaultMaxQueueingTime
	}
	return time.Duration(satMul(ms, int64(time.Millisecond)))
}

// queueingReason says why a rule's MaxQueueingTimeMs of ms is refused
// (negative, or over the bound in force), or "".
func queueingReason(ms int) string {
	limit := maxQueueingMs.Load()
	if limit == 0 {
		limit = DefaultMaxQueueingTime.Milliseconds()
	}
	return rulecheck.QueueingMs(ms, limit)
}
