package runtime

import (
	"sync"
	"sync/atomic"
)

// BreakerEvent describes one state change of a circuit breaker.
type BreakerEvent struct {
	// Resource is the guarded resource.
	Resource string
	// Rule is the degrade rule of the breaker, with defaults filled in.
	Rule DegradeRule
	// From and To are the states before and after the change.
	From, To BreakerState
	// Value is what triggered an opening: the slow or error ratio, or the
	// error count; 1 when a failed probe re-opened the breaker; 0 otherwise.
	Value float64
	// AtMs is the Clock's time of the change, in milliseconds.
	AtMs int64
}

// Breaker listeners: a copy-on-write slice so notification takes no lock.
var breakerListeners struct {
	mu     sync.Mutex
	nextID uint64
	list   atomic.Pointer[[]breakerListener]
}

type breakerListener struct {
	id uint64
	fn func(BreakerEvent)
}

// OnBreakerStateChange registers fn to be called on every circuit breaker
// state change, synchronously on the goroutine whose call caused it (keep fn
// quick and never block in it). It returns a function that unregisters fn.
func OnBreakerStateChange(fn func(BreakerEvent)) (unregister func()) {
	breakerListeners.mu.Lock()
	defer breakerListeners.mu.Unlock()
	breakerListeners.nextID++
	id := breakerListeners.nextID
	var list []breakerListener
	if old := breakerListeners.list.Load(); old != nil {
		list = append(list, *old...)
	}
	list = append(list, breakerListener{id: id, fn: fn})
	breakerListeners.list.Store(&list)
	return func() {
		breakerListeners.mu.Lock()
		defer breakerListeners.mu.Unlock()
		old := breakerListeners.list.Load()
		if old == nil {
			return
		}
		kept := make([]breakerListener, 0, len(*old))
		for _, l := range *old {
			if l.id != id {
				kept = append(kept, l)
			}
		}
		breakerListeners.list.Store(&kept)
	}
}

// notifyBreaker calls every registered listener with ev, in registration
// order.
func notifyBreaker(ev BreakerEvent) {
	if list := breakerListeners.list.Load(); list != nil {
		for _, l := range *list {
			l.fn(ev)
		}
	}
}
