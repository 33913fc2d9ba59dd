package runtime

import (
	"fmt"
	"strconv"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
)

// FlowGrade is what a flow rule (or a hot-parameter rule) counts. The zero
// value is FlowGradeQPS, as Java's FlowRule defaults to QPS: a
// FlowRule{Resource: "x", Count: 3} admits 3 calls per second. The numbers
// are not Sentinel's (there 0 is thread, 1 QPS); the rules package maps
// Sentinel's numbers when it reads or writes Sentinel JSON, so convert with
// it, never with a cast.
type FlowGrade int32

const (
	// FlowGradeQPS limits passed calls per second. It is the zero value.
	FlowGradeQPS FlowGrade = 0
	// FlowGradeConcurrency limits calls in flight (Sentinel's thread grade).
	// A call reserves its place before the comparison, so no more than
	// Count calls are ever in flight under the rule, however many arrive
	// together (relate-strategy rules, which read another resource's calls,
	// compare only). See flow_reserve.go for what that costs.
	FlowGradeConcurrency FlowGrade = 1
)

// SentinelNumber is g as Sentinel numbers it in rule JSON: 0 thread
// (concurrency), 1 QPS. The zero FlowGrade is QPS, so a grade is mapped,
// never cast; -1 for a value that is not a grade.
func (g FlowGrade) SentinelNumber() int32 {
	switch g {
	case FlowGradeQPS:
		return 1
	case FlowGradeConcurrency:
		return 0
	}
	return -1
}

// FlowGradeOfSentinel is the FlowGrade of Sentinel's number n (0 thread,
// 1 QPS); ok is false for any other n.
func FlowGradeOfSentinel(n int64) (g FlowGrade, ok bool) {
	switch n {
	case 1:
		return FlowGradeQPS, true
	case 0:
		return FlowGradeConcurrency, true
	}
	return 0, false
}

// FlowStrategy says whose traffic a flow rule measures. Values are Sentinel's.
type FlowStrategy int32

const (
	// StrategyDirect measures the resource itself.
	StrategyDirect FlowStrategy = 0
	// StrategyRelate measures RefResource: the resource is limited when the
	// related resource is busy (e.g. reads yield to writes).
	StrategyRelate FlowStrategy = 1
	// StrategyChain applies only to calls whose entrance (see WithEntrance)
	// is RefResource, and measures only those calls.
	StrategyChain FlowStrategy = 2
)

// ControlBehavior is what a QPS flow rule does with excess traffic. Values
// are Sentinel's.
type ControlBehavior int32

const (
	// BehaviorReject blocks calls over the limit at once.
	BehaviorReject ControlBehavior = 0
	// BehaviorWarmUp raises the limit gradually from Count/ColdFactor to Count
	// over WarmUpPeriodSec after a quiet period (token bucket, as Guava's
	// SmoothWarmingUp and Sentinel's WarmUpController).
	BehaviorWarmUp ControlBehavior = 1
	// BehaviorRateLimiter spaces calls evenly, one every 1/Count seconds,
	// making callers wait up to MaxQueueingTimeMs for their turn.
	BehaviorRateLimiter ControlBehavior = 2
	// BehaviorWarmUpRateLimiter is the rate limiter with a warming interval.
	BehaviorWarmUpRateLimiter ControlBehavior = 3
)

// Defaults applied to zero fields.
const (
	DefaultColdFactor       = 3
	DefaultStatIntervalMs   = 1000
	DefaultMinRequestAmount = 5
)

// FlowRule is Sentinel's FlowRule; the field numbers match Sentinel's JSON.
type FlowRule struct {
	// Resource names the guarded resource (required).
	Resource string
	// Grade selects QPS or concurrency counting.
	Grade FlowGrade
	// LimitApp says whose calls the rule counts (Sentinel's limitApp): ""
	// or "default" for every caller, an origin (see WithOrigin) for that
	// caller's calls alone, or "other" for callers that no other rule of the
	// resource names.
	LimitApp string
	// Count is the threshold: calls per second, or calls in flight.
	Count float64
	// Strategy selects whose traffic is measured.
	Strategy FlowStrategy
	// RefResource is the related resource (StrategyRelate) or the entrance
	// (StrategyChain); it must be empty for StrategyDirect.
	RefResource string
	// ControlBehavior selects reject, warm-up, rate limiter or both; anything
	// but BehaviorReject needs FlowGradeQPS.
	ControlBehavior ControlBehavior
	// WarmUpPeriodSec is the ramp length for the warm-up behaviours (> 0).
	WarmUpPeriodSec int
	// ColdFactor sets the starting rate Count/ColdFactor of a warm-up (0 means
	// DefaultColdFactor; otherwise > 1).
	ColdFactor int
	// MaxQueueingTimeMs is how long the rate limiter lets a call wait.
	MaxQueueingTimeMs int
	// StatIntervalMs is the span over which QPS is measured (0 means
	// DefaultStatIntervalMs). Count stays per second. Only StrategyDirect
	// rules may change it.
	StatIntervalMs int
	// ClusterMode asks the token service installed with SetTokenService for
	// the rule's budget instead of counting locally (QPS grade only).
	ClusterMode bool
	// ClusterConfig configures cluster mode; it is ignored when ClusterMode
	// is false.
	ClusterConfig ClusterConfig
}

// normalized returns r with defaults filled in, the form rules are compared
// and kept in.
func (r FlowRule) normalized() FlowRule {
	if r.ColdFactor == 0 {
		r.ColdFactor = DefaultColdFactor
	}
	if r.StatIntervalMs == 0 {
		r.StatIntervalMs = DefaultStatIntervalMs
	}
	return r
}

// describe is the text BlockError.Rule carries for a flow rule. It is
// built in one buffer: loads describe every new rule, and string
// concatenation allocated once per piece.
func (r FlowRule) describe(index int) string {
	var buf [96]byte
	return string(r.appendDescribe(buf[:0], index))
}

// appendDescribe appends describe's text to b.
func (r FlowRule) appendDescribe(b []byte, index int) []byte {
	b = strconv.AppendInt(append(b, "flow rule #"...), int64(index), 10)
	if r.Grade == FlowGradeQPS {
		b = append(b, " (QPS "...)
	} else {
		b = append(b, " (concurrency "...)
	}
	b = strconv.AppendFloat(b, r.Count, 'g', -1, 64)
	switch r.ControlBehavior {
	case BehaviorWarmUp:
		b = append(b, ", warm-up"...)
	case BehaviorRateLimiter:
		b = append(b, ", rate limiter"...)
	case BehaviorWarmUpRateLimiter:
		b = append(b, ", warm-up rate limiter"...)
	}
	switch r.Strategy {
	case StrategyRelate:
		b = append(append(b, ", related to "...), r.RefResource...)
	case StrategyChain:
		b = append(append(b, ", via entrance "...), r.RefResource...)
	}
	return append(b, ')')
}

// blockText is the text BlockError.Rule carries for the flow rule at index:
// describe's, with the cluster budget named when the rule is in cluster mode
// (the same error serves a cluster block and a block by the local fallback,
// so it names the rule, not who decided).
func (r FlowRule) blockText(index int) string {
	var buf [128]byte
	return string(r.appendBlockText(buf[:0], index))
}

// blockResource and appendBlockRule make a flow rule a blockSource: a flow
// check's error is formatted from its rule when first read.
func (r *FlowRule) blockResource() string { return r.Resource }

func (r *FlowRule) appendBlockRule(b []byte, index int) []byte { return r.appendBlockText(b, index) }

// appendBlockText appends blockText's text to b.
func (r FlowRule) appendBlockText(b []byte, index int) []byte {
	b = r.appendDescribe(b, index)
	if !r.ClusterMode {
		return b
	}
	b = strconv.AppendInt(append(b[:len(b)-1], ", cluster flow "...), r.ClusterConfig.FlowID, 10)
	return append(append(append(b, ' '), r.ClusterConfig.ThresholdType.String()...), ')')
}

// ValidateFlowRules checks every rule and returns all problems found, joined;
// nil means LoadFlowRules would accept the slice.
func ValidateFlowRules(rules []FlowRule) error { return validateEach(rules, checkFlowRule) }

// validateFlowRulesAt is ValidateFlowRules for the rules at the positions
// at (see validateAt).
func validateFlowRulesAt(rules []FlowRule, at []int32) error {
	return validateAt(rules, at, checkFlowRule)
}

// checkFlowRule appends the problems of rule i, r, to errs.
func checkFlowRule(errs []error, i int, r *FlowRule) []error {
	fail := rulecheck.Report(func(field, reason string) {
		errs = append(errs, &RuleError{Kind: "flow", Index: i, Resource: r.Resource, Field: field, Reason: reason})
	})
	fail.Counted(goNames, r.Resource, int32(r.Grade), r.Count)
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
			fail("ControlBehavior", "other than reject "+rulecheck.NeedsQPS)
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
	fail.Check("MaxQueueingTimeMs", queueingReason(r.MaxQueueingTimeMs))
	switch why := rulecheck.IntervalMs(r.StatIntervalMs, maxStatIntervalMs, DefaultStatIntervalMs); {
	case why != "":
		fail("StatIntervalMs", why)
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
