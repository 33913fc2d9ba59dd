package runtime

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sentinelgen/sentinelgen/runtime/internal/hotkeys"
)

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
	var errs []error
	for i, r := range rules {
		fail := func(field, reason string) {
			errs = append(errs, &RuleError{Kind: "param-flow", Index: i, Resource: r.Resource, Field: field, Reason: reason})
		}
		if r.Resource == "" {
			fail("Resource", "is empty")
		}
		if r.Grade != FlowGradeQPS && r.Grade != FlowGradeConcurrency {
			fail("Grade", fmt.Sprintf("%d is not a flow grade (QPS or concurrency)", r.Grade))
		}
		if badNumber(r.Count) {
			fail("Count", fmt.Sprintf("%v must be a finite number >= 0", r.Count))
		}
		switch r.ControlBehavior {
		case BehaviorReject:
		case BehaviorRateLimiter:
			if r.Grade == FlowGradeConcurrency {
				fail("ControlBehavior", "rate limiter needs Grade QPS")
			}
		default:
			fail("ControlBehavior", fmt.Sprintf("%d is not a param-flow behavior (0 reject, 2 rate limiter)", r.ControlBehavior))
		}
		if r.MaxQueueingTimeMs < 0 {
			fail("MaxQueueingTimeMs", fmt.Sprintf("%d must be >= 0", r.MaxQueueingTimeMs))
		} else if why := queueingTooLong(r.MaxQueueingTimeMs); why != "" {
			fail("MaxQueueingTimeMs", why)
		}
		if r.BurstCount < 0 {
			fail("BurstCount", fmt.Sprintf("%d must be >= 0", r.BurstCount))
		}
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
			if it.Count < 0 {
				fail(name+"Count", fmt.Sprintf("%d must be >= 0", it.Count))
			}
			if first, dup := seen[k]; dup {
				fail(name+"Object", fmt.Sprintf("%q names the value of Items[%d] again", it.Object, first))
			}
			seen[k] = j
		}
		if r.ClusterMode {
			validateParamCluster(r, fail)
		}
	}
	return errors.Join(errs...)
}

// validateParamCluster reports what is wrong with the cluster fields of a
// param-flow rule in cluster mode (Sentinel's ParamFlowClusterConfig).
func validateParamCluster(r ParamFlowRule, fail func(field, reason string)) {
	c := r.ClusterConfig
	if c.FlowID <= 0 {
		fail("ClusterConfig.FlowID", fmt.Sprintf("%d must be > 0 in cluster mode", c.FlowID))
	}
	if c.ThresholdType != AvgLocal && c.ThresholdType != Global {
		fail("ClusterConfig.ThresholdType", fmt.Sprintf("%d is not a threshold type (0 avgLocal, 1 global)", c.ThresholdType))
	}
	if r.Grade != FlowGradeQPS {
		fail("ClusterMode", "needs Grade QPS")
	}
	if c.WindowIntervalMs < 0 || c.WindowIntervalMs > maxStatIntervalMs {
		fail("ClusterConfig.WindowIntervalMs", fmt.Sprintf("%d must be between 1 and %d (0 means %d)", c.WindowIntervalMs, maxStatIntervalMs, DefaultStatIntervalMs))
	}
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
