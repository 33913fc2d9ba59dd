// Package rulewatch follows the rules in force and the circuit breakers'
// state changes for the adapters, which need to know more about a block or
// a route than a shared *runtime.BlockError says.
package rulewatch

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ruleWatch follows the rules in force and the circuit breakers' state
// changes, for what a request needs beyond its BlockError: whether a chain
// rule names a route (so the entrance goes in the context), whether a
// resource's flow rules all count QPS (so a flow block's wait is at most the
// one-second window), and when an open breaker will let a probe through.
// One watch serves every adapter of the process; it starts with the first.
var ruleWatch struct {
	once sync.Once
	// chainRefs holds the RefResource of every chain flow rule; nil when
	// there is none, so a request needs no map lookup.
	chainRefs atomic.Pointer[map[string]struct{}]
	// qpsOnly holds the resources whose flow rules all count QPS.
	qpsOnly atomic.Pointer[map[string]struct{}]
	// mu serialises the copies of retryAt made by breaker changes.
	mu sync.Mutex
	// retryAt maps a resource to the Clock time (ms) at which the breaker
	// that opened last will let a probe through.
	retryAt atomic.Pointer[map[string]int64]
}

// Start begins following rules and breakers; later calls do nothing.
func Start() {
	ruleWatch.once.Do(func() {
		runtime.OnFlowRulesChange(watchFlowRules)
		runtime.OnBreakerStateChange(watchBreaker)
	})
}

func watchFlowRules(rules []runtime.FlowRule) {
	chains := map[string]struct{}{}
	concurrency := map[string]bool{}
	for _, r := range rules {
		if r.Strategy == runtime.StrategyChain {
			chains[r.RefResource] = struct{}{}
		}
		concurrency[r.Resource] = concurrency[r.Resource] || r.Grade != runtime.FlowGradeQPS
	}
	qps := map[string]struct{}{}
	for res, conc := range concurrency {
		if !conc {
			qps[res] = struct{}{}
		}
	}
	if len(chains) == 0 {
		ruleWatch.chainRefs.Store(nil)
	} else {
		ruleWatch.chainRefs.Store(&chains)
	}
	ruleWatch.qpsOnly.Store(&qps)
}

// watchBreaker runs on the goroutine of the call that changed a breaker:
// it copies a small map under a lock, which happens once per state change.
func watchBreaker(ev runtime.BreakerEvent) {
	ruleWatch.mu.Lock()
	defer ruleWatch.mu.Unlock()
	next := map[string]int64{}
	if old := ruleWatch.retryAt.Load(); old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	if ev.To == runtime.StateOpen {
		next[ev.Resource] = ev.AtMs + int64(ev.Rule.TimeWindowSec)*1000
	} else {
		delete(next, ev.Resource)
	}
	ruleWatch.retryAt.Store(&next)
}

// ChainNamed reports whether a chain flow rule has name as its entrance.
func ChainNamed(name string) bool {
	refs := ruleWatch.chainRefs.Load()
	if refs == nil {
		return false
	}
	_, ok := (*refs)[name]
	return ok
}

// RetryAfter is how long a client refused with be should wait before trying
// again, or 0 when that is not known. It is known for a circuit breaker
// that is OPEN (until its TimeWindowSec since opening has passed) and for a
// flow block of a resource whose flow rules all count QPS (within the
// one-second window). A hot-parameter, system, concurrency or authority
// block has no known wait. Waits are known from the time Start is called.
func RetryAfter(be *runtime.BlockError) time.Duration {
	if be == nil {
		return 0
	}
	switch be.Type() {
	case runtime.BlockTypeDegrade:
		m := ruleWatch.retryAt.Load()
		if m == nil {
			return 0
		}
		at, ok := (*m)[be.Resource()]
		if !ok {
			return 0
		}
		if d := time.Duration(at*1e6 - runtime.CurrentClock().Nanotime()); d > 0 {
			return d
		}
	case runtime.BlockTypeFlow:
		if m := ruleWatch.qpsOnly.Load(); m != nil {
			if _, ok := (*m)[be.Resource()]; ok {
				return time.Second
			}
		}
	}
	return 0
}
