package runtime

import (
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"strconv"
	"strings"
)

// RuleError says which rule of a load was invalid and why. Loads return it
// (possibly joined with others by errors.Join); use errors.As to inspect it.
type RuleError struct {
	// Kind is "flow", "degrade", "param-flow", "system" or "authority".
	Kind string
	// Index is the rule's position in the slice passed to the load.
	Index int
	// Resource is the rule's Resource field.
	Resource string
	// Field is the offending field's name.
	Field string
	// Reason says what is wrong with it.
	Reason string
}

// Error names the rule by index and resource, then the field.
func (e *RuleError) Error() string {
	return e.Kind + " rule #" + strconv.Itoa(e.Index) + " (resource " + strconv.Quote(e.Resource) + "): " +
		e.Field + " " + e.Reason
}

// Limits of what a window can be split into; see bucketsFor.
const (
	maxStatIntervalMs = 3_600_000
	maxBuckets        = 600
	// maxDegradeRulesPerResource bounds breakers per resource: an Entry
	// records which breakers it probes in a 64-bit mask.
	maxDegradeRulesPerResource = 64
)

// Widest buckets wanted in a rule's own window. Flow rules want the 250 ms
// the runtime advises for flow control; breakers judge ratios over the whole
// interval and use Sentinel's 500 ms second-level width, which lets their
// window share time arithmetic with the resource's statistics.
const (
	flowBucketMs    = 250
	breakerBucketMs = 500
)

// bucketsFor picks how many buckets a window of intervalMs gets: the fewest
// that make buckets no wider than widthMs, or than intervalMs/60 for long
// intervals, rounded up to a divisor of intervalMs. It returns an error when
// no divisor up to maxBuckets exists (e.g. a large prime interval).
func bucketsFor(intervalMs, widthMs int) (int, error) {
	width := max(widthMs, intervalMs/60)
	n := max(2, (intervalMs+width-1)/width)
	if intervalMs < 2 {
		n = 1
	}
	for ; n <= min(intervalMs, maxBuckets); n++ {
		if intervalMs%n == 0 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("cannot be split into at most %d equal buckets; use a rounder number", maxBuckets)
}

func badNumber(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }

// ValidateFlowRules checks every rule and returns all problems found, joined;
// nil means LoadFlowRules would accept the slice.
func ValidateFlowRules(rules []FlowRule) error {
	var errs []error
	for i := range rules {
		errs = checkFlowRule(errs, i, &rules[i])
	}
	return errors.Join(errs...)
}

// validateFlowRulesAt is ValidateFlowRules for the rules at the positions
// at (ascending). A load checks only the positions that differ from the
// rules in force: a rule's validity depends on the rule alone, and the
// others passed when they were loaded.
func validateFlowRulesAt(rules []FlowRule, at []int32) error {
	var errs []error
	for _, p := range at {
		if int(p) < len(rules) {
			errs = checkFlowRule(errs, int(p), &rules[p])
		}
	}
	return errors.Join(errs...)
}

// checkFlowRule appends the problems of rule i, r, to errs.
func checkFlowRule(errs []error, i int, r *FlowRule) []error {
	fail := func(field, reason string) {
		errs = append(errs, &RuleError{Kind: "flow", Index: i, Resource: r.Resource, Field: field, Reason: reason})
	}
	if r.Resource == "" {
		fail("Resource", "is empty")
	}
	if r.Grade != FlowGradeConcurrency && r.Grade != FlowGradeQPS {
		fail("Grade", fmt.Sprintf("%d is not a flow grade (0 QPS, 1 concurrency)", r.Grade))
	}
	if badNumber(r.Count) {
		fail("Count", fmt.Sprintf("%v must be a finite number >= 0", r.Count))
	}
	switch r.Strategy {
	case StrategyDirect:
		if r.RefResource != "" {
			fail("RefResource", "must be empty for the direct strategy")
		}
	case StrategyRelate, StrategyChain:
		if r.RefResource == "" {
			fail("RefResource", "is required for the relate and chain strategies")
		} else if r.Strategy == StrategyRelate && r.RefResource == r.Resource {
			fail("RefResource", "must name another resource for the relate strategy")
		}
	default:
		fail("Strategy", fmt.Sprintf("%d is not a strategy (0 direct, 1 relate, 2 chain)", r.Strategy))
	}
	switch r.ControlBehavior {
	case BehaviorReject, BehaviorWarmUp, BehaviorRateLimiter, BehaviorWarmUpRateLimiter:
		if r.ControlBehavior != BehaviorReject && r.Grade == FlowGradeConcurrency {
			fail("ControlBehavior", "other than reject needs Grade QPS")
		}
	default:
		fail("ControlBehavior", fmt.Sprintf("%d is not a behavior (0 reject, 1 warm-up, 2 rate limiter, 3 warm-up rate limiter)", r.ControlBehavior))
	}
	warm := r.ControlBehavior == BehaviorWarmUp || r.ControlBehavior == BehaviorWarmUpRateLimiter
	if r.WarmUpPeriodSec < 0 || (warm && r.WarmUpPeriodSec == 0) {
		fail("WarmUpPeriodSec", fmt.Sprintf("%d must be > 0 for warm-up", r.WarmUpPeriodSec))
	}
	if r.ColdFactor < 0 || r.ColdFactor == 1 {
		fail("ColdFactor", fmt.Sprintf("%d must be > 1 (0 means %d)", r.ColdFactor, DefaultColdFactor))
	}
	if r.MaxQueueingTimeMs < 0 {
		fail("MaxQueueingTimeMs", fmt.Sprintf("%d must be >= 0", r.MaxQueueingTimeMs))
	} else if why := queueingTooLong(r.MaxQueueingTimeMs); why != "" {
		fail("MaxQueueingTimeMs", why)
	}
	switch {
	case r.StatIntervalMs < 0 || r.StatIntervalMs > maxStatIntervalMs:
		fail("StatIntervalMs", fmt.Sprintf("%d must be between 1 and %d (0 means %d)", r.StatIntervalMs, maxStatIntervalMs, DefaultStatIntervalMs))
	case r.StatIntervalMs != 0 && r.StatIntervalMs != DefaultStatIntervalMs && r.Strategy != StrategyDirect:
		fail("StatIntervalMs", "can only be changed for the direct strategy")
	case r.StatIntervalMs != 0:
		if _, err := bucketsFor(r.StatIntervalMs, flowBucketMs); err != nil {
			fail("StatIntervalMs", err.Error())
		}
	}
	if r.ClusterMode {
		validateCluster(*r, fail)
	}
	return errs
}

// ValidateDegradeRules checks every rule and returns all problems found,
// joined; nil means LoadDegradeRules would accept the slice.
func ValidateDegradeRules(rules []DegradeRule) error { return validateDegradeRules(rules, nil) }

// validateDegradeRules is ValidateDegradeRules counting rules per resource
// only for the resources in only, or for all when only is nil. A load
// passes the resources whose rules changed: every other resource has the
// rules of the last load, which passed the count.
//
// The rules' own fields are checked only at only's differing positions (all
// of them when only is nil): a rule's fields are valid or not whatever the
// other rules, and the rules in force passed when they were loaded.
func validateDegradeRules(rules []DegradeRule, only *ruleChanges) error {
	var errs []error
	var perResource map[string]int
	if len(rules) > maxDegradeRulesPerResource {
		perResource = map[string]int{}
	}
	var at []int32 // the positions to check, when only is not nil
	if only != nil {
		at = only.degradeAt.at
	}
	for i := 0; i < len(rules); i++ {
		if only != nil && perResource == nil { // nothing to count: visit the differing positions only
			if len(at) == 0 || int(at[0]) >= len(rules) {
				break
			}
			i = int(at[0])
		}
		fields := only == nil || (len(at) != 0 && int(at[0]) == i)
		if fields && only != nil {
			at = at[1:]
		}
		r := &rules[i]
		fail := func(field, reason string) {
			errs = append(errs, &RuleError{Kind: "degrade", Index: i, Resource: r.Resource, Field: field, Reason: reason})
		}
		if fields && r.Resource == "" {
			fail("Resource", "is empty")
		}
		// A differing position's resource is a changed one: no lookup.
		if perResource != nil && (fields || only.has(r.Resource)) {
			perResource[r.Resource]++
			if perResource[r.Resource] == maxDegradeRulesPerResource+1 {
				fail("Resource", fmt.Sprintf("has more than %d degrade rules", maxDegradeRulesPerResource))
			}
		}
		if !fields {
			continue
		}
		switch r.Grade {
		case DegradeSlowRatio, DegradeErrorCount:
			if badNumber(r.Count) {
				fail("Count", fmt.Sprintf("%v must be a finite number >= 0", r.Count))
			}
		case DegradeErrorRatio:
			if badNumber(r.Count) || r.Count > 1 {
				fail("Count", fmt.Sprintf("%v must be an error ratio between 0 and 1", r.Count))
			}
		default:
			fail("Grade", fmt.Sprintf("%d is not a degrade grade (0 slow ratio, 1 error ratio, 2 error count)", r.Grade))
		}
		if badNumber(r.SlowRatioThreshold) || r.SlowRatioThreshold > 1 {
			fail("SlowRatioThreshold", fmt.Sprintf("%v must be a ratio between 0 and 1", r.SlowRatioThreshold))
		}
		if r.TimeWindowSec <= 0 {
			fail("TimeWindowSec", fmt.Sprintf("%d must be > 0", r.TimeWindowSec))
		}
		if r.MinRequestAmount < 0 {
			fail("MinRequestAmount", fmt.Sprintf("%d must be >= 0 (0 means %d)", r.MinRequestAmount, DefaultMinRequestAmount))
		}
		if r.StatIntervalMs < 0 || r.StatIntervalMs > maxStatIntervalMs {
			fail("StatIntervalMs", fmt.Sprintf("%d must be between 1 and %d (0 means %d)", r.StatIntervalMs, maxStatIntervalMs, DefaultStatIntervalMs))
		} else if r.StatIntervalMs != 0 {
			if _, err := bucketsFor(r.StatIntervalMs, breakerBucketMs); err != nil {
				fail("StatIntervalMs", err.Error())
			}
		}
	}
	return errors.Join(errs...)
}

// ValidateAuthorityRules checks every rule and returns all problems found,
// joined; nil means LoadAuthorityRules would accept the slice.
func ValidateAuthorityRules(rules []AuthorityRule) error {
	var errs []error
	for i := range rules {
		errs = checkAuthorityRule(errs, i, &rules[i])
	}
	return errors.Join(errs...)
}

// validateAuthorityRulesAt is validateFlowRulesAt for authority rules.
func validateAuthorityRulesAt(rules []AuthorityRule, at []int32) error {
	var errs []error
	for _, p := range at {
		if int(p) < len(rules) {
			errs = checkAuthorityRule(errs, int(p), &rules[p])
		}
	}
	return errors.Join(errs...)
}

// checkAuthorityRule appends the problems of rule i, r, to errs.
func checkAuthorityRule(errs []error, i int, r *AuthorityRule) []error {
	fail := func(field, reason string) {
		errs = append(errs, &RuleError{Kind: "authority", Index: i, Resource: r.Resource, Field: field, Reason: reason})
	}
	if r.Resource == "" {
		fail("Resource", "is empty")
	}
	if r.Strategy != AuthorityWhite && r.Strategy != AuthorityBlack {
		fail("Strategy", fmt.Sprintf("%d is not an authority strategy (0 white list, 1 black list)", r.Strategy))
	}
	if strings.TrimSpace(strings.ReplaceAll(r.LimitApp, ",", "")) == "" {
		fail("LimitApp", "names no origin")
	}
	for _, origin := range strings.Split(r.LimitApp, ",") {
		if origin != strings.TrimSpace(origin) {
			// Sentinel matches items exactly: " b" would never match
			// the origin "b", silently.
			fail("LimitApp", fmt.Sprintf("item %q has surrounding spaces, which never match an origin", origin))
		}
	}
	return errs
}

// ValidateSystemRules checks every rule and returns all problems found,
// joined; nil means LoadSystemRules would accept the slice. A negative
// field is unset; set fields must be finite, and HighestCPUUsage at most 1
// (a fraction of the CPUs the process may use, not a percentage). Load and
// CPU thresholds are reported as unsupported where the runtime cannot read
// them (platforms other than Linux).
func ValidateSystemRules(rules []SystemRule) error {
	var errs []error
	for i, r := range rules {
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
	}
	return errors.Join(errs...)
}
