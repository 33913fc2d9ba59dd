package runtime

import (
	"fmt"
	"math"
	goruntime "runtime"
)

// SystemRule is Sentinel's SystemRule (system adaptive protection). It guards
// the whole process: only inbound resources (WithTrafficType(TrafficInbound))
// are checked, against the aggregate of all inbound traffic. A negative field
// is unset; the thresholds of all system rules in force combine by minimum.
type SystemRule struct {
	// HighestSystemLoad is the one-minute load average above which inbound
	// calls are refused, unless the BBR estimate says the process can still
	// take them (Sentinel's checkBbr).
	HighestSystemLoad float64
	// HighestCPUUsage is the process CPU usage (0..1, of the CPUs the
	// process may use) above which inbound calls are refused.
	HighestCPUUsage float64
	// QPS is the highest rate of passed inbound calls per second.
	QPS float64
	// AvgRT is the highest mean response time of inbound calls, in ms.
	AvgRT int64
	// MaxThread is the highest number of inbound calls in flight.
	MaxThread int64
}

// ValidateSystemRules checks every rule and returns all problems found,
// joined; nil means LoadSystemRules would accept the slice. A negative
// field is unset; set fields must be finite, and HighestCPUUsage at most 1
// (a fraction of the CPUs the process may use, not a percentage). Load and
// CPU thresholds are reported as unsupported where the runtime cannot read
// them (platforms other than Linux).
func ValidateSystemRules(rules []SystemRule) error { return validateEach(rules, checkSystemRule) }

// checkSystemRule appends the problems of rule i, r, to errs.
func checkSystemRule(errs []error, i int, r *SystemRule) []error {
	fail := func(field, reason string) {
		errs = append(errs, &RuleError{Kind: "system", Index: i, Field: field, Reason: reason})
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"HighestSystemLoad", r.HighestSystemLoad}, {"HighestCPUUsage", r.HighestCPUUsage}, {"QPS", r.QPS}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			fail(f.name, fmt.Sprintf("%v must be a finite number (negative: unset)", f.v))
		}
	}
	// The zero value of a field is a threshold of 0, not "unset": refuse
	// it, so that SystemRule{QPS: 100} does not silently refuse every
	// inbound call through its zero AvgRT, MaxThread, load and CPU.
	for _, f := range []struct {
		name string
		zero bool
	}{{"HighestSystemLoad", r.HighestSystemLoad == 0}, {"HighestCPUUsage", r.HighestCPUUsage == 0}, {"QPS", r.QPS == 0},
		{"AvgRT", r.AvgRT == 0}, {"MaxThread", r.MaxThread == 0}} {
		if f.zero {
			fail(f.name, "0 would refuse every inbound call; set -1 to leave it unset")
		}
	}
	if r.HighestCPUUsage > 1 {
		fail("HighestCPUUsage", fmt.Sprintf("%v must be at most 1: it is a fraction of the CPUs the process may use, not a percentage", r.HighestCPUUsage))
	}
	if !readingsSupported() {
		if r.HighestSystemLoad >= 0 {
			fail("HighestSystemLoad", "is unsupported on "+goruntime.GOOS+": the runtime reads the load average on Linux only")
		}
		if r.HighestCPUUsage >= 0 {
			fail("HighestCPUUsage", "is unsupported on "+goruntime.GOOS+": the runtime reads CPU usage on Linux only")
		}
	}
	return errs
}
