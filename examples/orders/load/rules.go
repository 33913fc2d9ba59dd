package load

import (
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// resourceName is createOrder's resource, as its directive names it.
const resourceName = "createOrder"

// breakerClosed is the state every breaker starts in.
var breakerClosed = runtime.StateClosed.String()

// flowRules is the entrance layer of the articles' setup: fast-fail QPS.
func flowRules(cfg *Config) []runtime.FlowRule {
	r := runtime.FlowRule{
		Resource: resourceName,
		Grade:    runtime.FlowGradeQPS,
		Count:    cfg.FlowQPS,
	}
	if cfg.ClusterFlow != nil {
		r.ClusterMode, r.ClusterConfig = true, *cfg.ClusterFlow
	}
	return []runtime.FlowRule{r}
}

// degradeRules is the dependency layer: a slow-call-ratio breaker.
func degradeRules(cfg *Config) []runtime.DegradeRule {
	return []runtime.DegradeRule{{
		Resource:           resourceName,
		Grade:              runtime.DegradeSlowRatio,
		Count:              float64(cfg.SlowRT.Milliseconds()),
		SlowRatioThreshold: cfg.SlowRatio,
		TimeWindowSec:      int(cfg.OpenFor.Round(time.Second) / time.Second),
		MinRequestAmount:   cfg.MinRequests,
		StatIntervalMs:     int(cfg.StatInterval.Milliseconds()),
	}}
}

// installRules replaces the process's rules with cfg's (unless the caller
// has put rules in force itself) and reports every state change of
// createOrder's breaker to moved, until the returned function is called. The rules are cleared first: the runtime keeps the state of a
// check whose rule is unchanged, and each run must start from a CLOSED
// breaker with empty statistics even when a previous run loaded the same
// rules.
func installRules(cfg *Config, moved func(at time.Duration, to string)) (stop func(), err error) {
	if cfg.RulesInForce {
		return watchBreaker(moved), nil
	}
	// Through rules.Apply, the one writer of the rules in force, so that a
	// data source or a dashboard push never interleaves with these loads.
	if err := rules.Apply(rules.Set{}); err != nil {
		return nil, err
	}
	if err := rules.Apply(rules.Set{Flow: flowRules(cfg), Degrade: degradeRules(cfg)}); err != nil {
		return nil, err
	}
	return watchBreaker(moved), nil
}

// watchBreaker reports createOrder's breaker state changes to moved until the
// returned function is called.
func watchBreaker(moved func(at time.Duration, to string)) (stop func()) {
	return runtime.OnBreakerStateChange(func(ev runtime.BreakerEvent) {
		if ev.Resource == resourceName {
			moved(time.Duration(ev.AtMs)*time.Millisecond, ev.To.String())
		}
	})
}
