// Package load drives traffic at the orders example while a QPS flow rule and
// a slow-call-ratio circuit breaker guard createOrder, and counts per second
// what the callers got back. It runs either on the wall clock (Run, used by
// cmd/orders) or on simulated time (Simulate, used by the tests), with the
// same driver code.
package load

import (
	"errors"
	"fmt"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Config sets the offered load, the rules and the behaviour of the simulated
// inventory.
type Config struct {
	OfferedQPS float64       // arrivals per second, evenly spaced (open loop: arrivals do not wait for answers)
	Duration   time.Duration // how long arrivals continue; whole seconds are reported
	FlowQPS    float64       // createOrder's QPS flow rule (fast fail)
	// ClusterFlow, when set, puts createOrder's flow rule in cluster mode
	// with this configuration: a token server decides it, FlowQPS being
	// the cluster's budget (Global) or each instance's (AvgLocal).
	ClusterFlow *runtime.ClusterConfig

	// The slow-call-ratio breaker on createOrder. The Sentinel articles use
	// 200 ms / 0.5 / 10 s; the default here opens for 2 s so that a short run
	// shows the whole OPEN, HALF_OPEN, CLOSED cycle.
	SlowRT       time.Duration // a call slower than this is slow
	SlowRatio    float64       // the breaker opens when the slow fraction exceeds this
	OpenFor      time.Duration // how long the breaker stays open before probing
	MinRequests  int           // calls needed in a stat interval before the ratio counts
	StatInterval time.Duration // the breaker's statistics window

	// The simulated inventory.
	FastLatency time.Duration // typical latency when healthy
	SlowLatency time.Duration // latency during the slow phase
	SlowFrom    time.Duration // the slow phase starts this long after the start
	SlowUntil   time.Duration // and ends this long after the start
	FailRate    float64       // fraction of reservations that fail (answered by the fallback)

	InvalidRate float64 // fraction of requests that fail validation (passed through by ignore=)
	Seed        uint64  // seeds the choice of failing and invalid calls

	// OnSecond, if set, receives each second as soon as every call that
	// arrived in it has been answered, in order.
	OnSecond func(Second)

	// RulesInForce says the caller has already put createOrder's rules in
	// force (for example from a rule file with datasource/file's Watch), so
	// the driver loads none of its own and the rule fields above are only
	// descriptive.
	RulesInForce bool
}

// DefaultConfig is a 10 s run: 150 offered QPS against a 100 QPS rule, with
// the inventory slow (400 ms against a 200 ms threshold) from 3 s to 6 s.
func DefaultConfig() Config {
	return Config{
		OfferedQPS:   150,
		Duration:     10 * time.Second,
		FlowQPS:      100,
		SlowRT:       200 * time.Millisecond,
		SlowRatio:    0.5,
		OpenFor:      2 * time.Second,
		MinRequests:  5,
		StatInterval: time.Second,
		FastLatency:  20 * time.Millisecond,
		SlowLatency:  400 * time.Millisecond,
		SlowFrom:     3 * time.Second,
		SlowUntil:    6 * time.Second,
		FailRate:     0.02,
		InvalidRate:  0.01,
		Seed:         1,
	}
}

// slowAt reports whether the inventory is in its slow phase at offset d from
// the start.
func (c *Config) slowAt(d time.Duration) bool {
	return d >= c.SlowFrom && d < c.SlowUntil
}

// check reports every setting that cannot work.
func (c *Config) check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.OfferedQPS <= 0 {
		bad("offered QPS %v must be positive", c.OfferedQPS)
	}
	if c.Duration < time.Second {
		bad("duration %v must be at least 1s", c.Duration)
	}
	if c.FlowQPS < 0 {
		bad("flow QPS %v must not be negative", c.FlowQPS)
	}
	if c.SlowRatio < 0 || c.SlowRatio > 1 {
		bad("slow ratio %v must be within [0, 1]", c.SlowRatio)
	}
	if c.SlowRT <= 0 || c.OpenFor <= 0 || c.StatInterval <= 0 {
		bad("slow RT, open duration and stat interval must be positive")
	}
	if c.FastLatency < 0 || c.SlowLatency < 0 {
		bad("latencies must not be negative")
	}
	for _, r := range []float64{c.FailRate, c.InvalidRate} {
		if r < 0 || r > 1 {
			bad("rate %v must be within [0, 1]", r)
		}
	}
	return errors.Join(errs...)
}
