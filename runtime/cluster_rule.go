package runtime

import (
	"fmt"
	"strconv"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
)

// ThresholdType says how a cluster-mode flow rule's Count is read. Values are
// Sentinel's (ClusterRuleConstant.FLOW_THRESHOLD_*).
type ThresholdType int32

const (
	// AvgLocal reads Count as the budget of one instance: the cluster's
	// budget is Count times the number of live instances.
	AvgLocal ThresholdType = 0
	// Global reads Count as the budget of the whole cluster.
	Global ThresholdType = 1
)

// ClusterConfig is Sentinel's ClusterFlowConfig: how a flow rule in cluster
// mode asks the token service for its budget.
//
// A rule in cluster mode must be a QPS rule of the direct strategy. The token
// service counts passes against Count only; the rule's ControlBehavior
// (warm-up, rate limiter) applies while the rule falls back to the local
// check.
type ClusterConfig struct {
	// FlowID identifies the rule's budget in the token service; every
	// instance sharing a budget uses the same FlowID (required, > 0).
	FlowID int64
	// ThresholdType says whether Count is per cluster or per instance.
	ThresholdType ThresholdType
	// FallbackToLocalWhenFail applies the rule locally, as if ClusterMode
	// were off, while the token service cannot answer. When false, calls pass
	// unchecked while the service is unavailable (Sentinel's behaviour). The
	// rule file formats default it to true, as Sentinel does; the Go zero
	// value is false.
	FallbackToLocalWhenFail bool
	// WindowIntervalMs is the span of the cluster-wide statistic (0 means
	// DefaultStatIntervalMs). Count stays per second.
	WindowIntervalMs int
}

// String returns "avgLocal" or "global", the spelling of the rule files.
func (t ThresholdType) String() string {
	switch t {
	case AvgLocal:
		return "avgLocal"
	case Global:
		return "global"
	}
	return "ThresholdType(" + strconv.Itoa(int(t)) + ")"
}

// validateCluster reports what is wrong with the cluster fields of a rule in
// cluster mode. The token services count passed calls per window of one
// resource, so cluster mode takes QPS rules of the direct strategy only.
func validateCluster(r FlowRule, fail func(field, reason string)) {
	c := r.ClusterConfig
	windowOK := checkClusterConfig(c, r.Grade, fail)
	if r.Strategy != StrategyDirect {
		fail("ClusterMode", "needs the direct strategy")
	}
	if windowOK && c.WindowIntervalMs != 0 {
		if _, err := bucketsFor(c.WindowIntervalMs, flowBucketMs); err != nil {
			fail("ClusterConfig.WindowIntervalMs", err.Error())
		}
	}
}

// checkClusterConfig reports the problems flow and param-flow rules in
// cluster mode share: a budget id, a threshold type, the QPS grade and a
// window span in range. windowOK says whether the span is in range, for
// the checks a family adds on it.
func checkClusterConfig(c ClusterConfig, grade FlowGrade, fail func(field, reason string)) (windowOK bool) {
	if c.FlowID <= 0 {
		fail("ClusterConfig.FlowID", fmt.Sprintf("%d must be > 0 in cluster mode", c.FlowID))
	}
	if c.ThresholdType != AvgLocal && c.ThresholdType != Global {
		fail("ClusterConfig.ThresholdType", fmt.Sprintf("%d is not a threshold type (0 avgLocal, 1 global)", c.ThresholdType))
	}
	if grade != FlowGradeQPS {
		fail("ClusterMode", rulecheck.NeedsQPS)
	}
	if why := rulecheck.IntervalMs(c.WindowIntervalMs, maxStatIntervalMs, DefaultStatIntervalMs); why != "" {
		fail("ClusterConfig.WindowIntervalMs", why)
		return false
	}
	return true
}
