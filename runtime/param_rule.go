package runtime

import (
	"fmt"
	"strconv"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
	"github.com/sentinelgen/sentinelgen/runtime/internal/hotkeys"
)

// ParamFlowRule is Sentinel's ParamFlowRule (hot-parameter flow control): it
// limits calls per value of one argument of the call, so one hot value (a
// best-selling SKU) cannot take the budget of all the others.
//
// Defaults differ from FlowRule's where Sentinel's do: DurationInSec 0 means
// 1, and a cluster-mode rule does not fall back to local counting unless
// ClusterConfig.FallbackToLocalWhenFail is set (which validation requires:
// see ClusterMode).
type ParamFlowRule struct {
	// Resource names the guarded resource (required).
	Resource string
	// Grade counts passed calls per value per DurationInSec (FlowGradeQPS,
	// the zero value) or calls in flight per value (FlowGradeConcurrency).
	Grade FlowGrade
	// ParamIdx selects the argument. It counts the method's parameters after
	// a leading context.Context, so Detail(ctx, sku string) has sku at 0, as
	// Java's detail(String sku) does. A negative index counts from the end
	// (-1 is the last parameter).
	ParamIdx int
	// Count is the threshold per value, unless an item names the value.
	Count float64
	// ControlBehavior is BehaviorReject (token bucket with BurstCount) or
	// BehaviorRateLimiter (calls of one value spaced 1000·DurationInSec/Count
	// ms apart, waiting up to MaxQueueingTimeMs). QPS grade only.
	ControlBehavior ControlBehavior
	// MaxQueueingTimeMs is how long the rate limiter lets a call wait.
	MaxQueueingTimeMs int
	// BurstCount is the extra tokens a value may spend at once beyond Count
	// (BehaviorReject).
	BurstCount int
	// DurationInSec is the length of the counting period (0 means 1).
	DurationInSec int
	// Items give particular values their own threshold.
	Items []ParamFlowItem
	// ClusterMode marks a rule of a cluster-wide budget per value: a token
	// service that implements ParamTokenService (a Sentinel token server's
	// client, cluster/tokenclient) decides it; while none can, the rule is
	// checked locally. It must set ClusterConfig.FallbackToLocalWhenFail:
	// without it, Sentinel's semantics would pass every call unchecked.
	ClusterMode bool
	// ClusterConfig configures cluster mode; it is ignored when ClusterMode
	// is false.
	ClusterConfig ClusterConfig
}

// ParamFlowItem is Sentinel's ParamFlowItem: a threshold of its own for one
// value of the argument.
type ParamFlowItem struct {
	// Object is the value, as text ("42", "sku-1", "true").
	Object string
	// ClassType is the Java type name Sentinel gives the value: "int",
	// "long", "String", "double", "float", "boolean", "byte", "short",
	// "char" (or their java.lang names). The value only matches an argument
	// of the corresponding Go kind; lint reports a mismatch.
	ClassType string
	// Count is the value's threshold.
	Count int
}

// ValidateParamFlowRules checks every rule and returns all problems found,
// joined (RuleError values of Kind "param-flow"); nil means a load would
// accept the slice.
//
// The checks are Sentinel's (ParamFlowRuleUtil.isValidRule: a resource,
// Count >= 0, BurstCount >= 0, MaxQueueingTimeMs >= 0, DurationInSec > 0
// once 0 is read as 1, a valid cluster config) and these, where Sentinel
// would load a rule that does not do what it says: Grade and
// ControlBehavior must be ones a param-flow rule has (reject or rate
// limiter, the rate limiter for the QPS grade only); every item must parse
// under its ClassType, with Count >= 0 and a value no other item of the
// rule names (Sentinel skips a bad item and keeps the last duplicate); and a
// cluster-mode rule must set ClusterConfig.FallbackToLocalWhenFail, because
// the rule is checked locally whenever no token service decides it (none
// installed, one without per-value budgets, a server that does not answer),
// and without it Sentinel's semantics would pass every call unchecked.
func ValidateParamFlowRules(rules []ParamFlowRule) error {
	return validateEach(rules, checkParamFlowRule)
}

// checkParamFlowRule appends the problems of rule i, r, to errs.
func checkParamFlowRule(errs []error, i int, r *ParamFlowRule) []error {
	fail := rulecheck.Report(func(field, reason string) {
		errs = append(errs, &RuleError{Kind: "param-flow", Index: i, Resource: r.Resource, Field: field, Reason: reason})
	})
	fail.Counted(goNames, r.Resource, int32(r.Grade), r.Count)
	fail.Check("ControlBehavior", rulecheck.PerValueBehavior(int32(r.ControlBehavior), int32(r.Grade)))
	fail.Check("MaxQueueingTimeMs", queueingReason(r.MaxQueueingTimeMs))
	fail.Check("BurstCount", rulecheck.NonNegative(int64(r.BurstCount)))
	if r.DurationInSec < 0 {
		fail("DurationInSec", fmt.Sprintf("%d must be > 0 (0 means 1)", r.DurationInSec))
	}
	seen := make(map[hotkeys.Key]int, len(r.Items))
	for j, it := range r.Items {
		name := "Items[" + strconv.Itoa(j) + "]."
		k, field, reason := parseItem(it)
		if field != "" {
			fail(name+field, reason)
			continue
		}
		fail.Check(name+"Count", rulecheck.NonNegative(int64(it.Count)))
		if first, dup := seen[k]; dup {
			fail(name+"Object", fmt.Sprintf("%q names the value of Items[%d] again", it.Object, first))
		}
		seen[k] = j
	}
	if r.ClusterMode {
		validateParamCluster(*r, fail)
	}
	return errs
}

// validateParamCluster reports what is wrong with the cluster fields of a
// param-flow rule in cluster mode (Sentinel's ParamFlowClusterConfig).
func validateParamCluster(r ParamFlowRule, fail func(field, reason string)) {
	c := r.ClusterConfig
	checkClusterConfig(c, r.Grade, fail)
	if !c.FallbackToLocalWhenFail {
		fail("ClusterConfig.FallbackToLocalWhenFail", "must be true: the rule is checked locally whenever no token server decides it, and without the fallback it would pass every call")
	}
}

// normalized is the rule with defaults filled in: DurationInSec 0 means 1.
func (r ParamFlowRule) normalized() ParamFlowRule {
	if r.DurationInSec == 0 {
		r.DurationInSec = 1
	}
	return r
}

// describe is the text BlockError.Rule carries for the param-flow rule at
// index, e.g. "param-flow rule #0 (param 0, QPS 5 per 1s, burst 2)".
func (r ParamFlowRule) describe(index int) string {
	b := []byte("param-flow rule #")
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, " (param "...)
	b = strconv.AppendInt(b, int64(r.ParamIdx), 10)
	switch {
	case r.Grade == FlowGradeConcurrency:
		b = append(b, ", concurrency "...)
		b = strconv.AppendFloat(b, r.Count, 'g', -1, 64)
	case r.ControlBehavior == BehaviorRateLimiter:
		b = append(b, ", rate limiter "...)
		b = strconv.AppendFloat(b, r.Count, 'g', -1, 64)
		b = append(b, " per "...)
		b = strconv.AppendInt(b, int64(r.DurationInSec), 10)
		b = append(b, "s, queue "...)
		b = strconv.AppendInt(b, int64(r.MaxQueueingTimeMs), 10)
		b = append(b, "ms"...)
	default:
		b = append(b, ", QPS "...)
		b = strconv.AppendFloat(b, r.Count, 'g', -1, 64)
		b = append(b, " per "...)
		b = strconv.AppendInt(b, int64(r.DurationInSec), 10)
		b = append(b, 's')
		if r.BurstCount > 0 {
			b = append(b, ", burst "...)
			b = strconv.AppendInt(b, int64(r.BurstCount), 10)
		}
	}
	if n := len(r.Items); n > 0 {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, " items"...)
	}
	if r.ClusterMode {
		b = append(b, ", cluster flow "...)
		b = strconv.AppendInt(b, r.ClusterConfig.FlowID, 10)
	}
	return string(append(b, ')'))
}
