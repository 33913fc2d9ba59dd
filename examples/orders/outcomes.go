package orders

import (
	"context"
	"errors"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Outcomes counts the calls the handlers answered instead of the service. A
// degraded answer that nobody counts hides an outage, so every handler
// records here before it returns.
type Outcomes struct {
	blockedFlow    atomic.Int64
	blockedDegrade atomic.Int64

	mu        sync.Mutex
	fallbacks map[FallbackReason]int64
}

// FallbackReason names why a fallback ran, as a metric label would.
type FallbackReason string

// The fallback reasons the service tells apart.
const (
	ReasonBlocked     FallbackReason = "blocked" // a rule refused a call that has no blockHandler
	ReasonUnavailable FallbackReason = "inventory-unavailable"
	ReasonTimeout     FallbackReason = "timeout"
	ReasonOther       FallbackReason = "other"
)

// fallbackReason maps an error to the label its fallback is counted under.
func fallbackReason(err error) FallbackReason {
	switch {
	case errors.Is(err, runtime.ErrBlocked):
		return ReasonBlocked
	case errors.Is(err, ErrInventoryUnavailable):
		return ReasonUnavailable
	case errors.Is(err, context.DeadlineExceeded):
		return ReasonTimeout
	}
	return ReasonOther
}

func (o *Outcomes) addFallback(reason FallbackReason) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fallbacks == nil {
		o.fallbacks = make(map[FallbackReason]int64)
	}
	o.fallbacks[reason]++
}

// OutcomeCounts is a copy of Outcomes at one moment.
type OutcomeCounts struct {
	BlockedFlow    int64 // calls refused by a flow rule
	BlockedDegrade int64 // calls refused by an open circuit breaker
	// Fallbacks counts fallback answers by reason; their sum is the number
	// of calls that failed and were answered by a fallback.
	Fallbacks map[FallbackReason]int64
}

// TotalFallbacks is the sum of Fallbacks over every reason.
func (c OutcomeCounts) TotalFallbacks() int64 {
	var n int64
	for _, v := range c.Fallbacks {
		n += v
	}
	return n
}

// Counts returns the counts so far.
func (o *Outcomes) Counts() OutcomeCounts {
	o.mu.Lock()
	defer o.mu.Unlock()
	return OutcomeCounts{
		BlockedFlow:    o.blockedFlow.Load(),
		BlockedDegrade: o.blockedDegrade.Load(),
		Fallbacks:      maps.Clone(o.fallbacks),
	}
}
