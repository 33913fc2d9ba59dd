package runtime

import (
	"errors"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
)

// The numbers rulecheck's messages name are the runtime's.
func TestRulecheckNumbersAreTheRuntimes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want int32
	}{
		{"FlowGradeQPS", int32(FlowGradeQPS), rulecheck.GradeQPS},
		{"FlowGradeConcurrency", int32(FlowGradeConcurrency), rulecheck.GradeConcurrency},
		{"BehaviorReject", int32(BehaviorReject), rulecheck.BehaviorReject},
		{"BehaviorRateLimiter", int32(BehaviorRateLimiter), rulecheck.BehaviorRateLimiter},
	} {
		if tc.got != tc.want {
			t.Errorf("%s is %d, rulecheck says %d", tc.name, tc.got, tc.want)
		}
	}
}

// reasonFor is the reason of the joined *RuleError values in err for
// field, or "" when none names it.
func reasonFor(err error, field string) string {
	if err == nil {
		return ""
	}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var re *RuleError
		if errors.As(e, &re) && re.Field == field {
			return re.Reason
		}
	}
	return ""
}

// A flow rule and a param-flow rule with the same mistake in a field they
// share get the same reason.
func TestFlowAndParamRulesShareReasons(t *testing.T) {
	flow := FlowRule{Resource: "r", Grade: FlowGradeQPS, Count: 1}
	param := ParamFlowRule{Resource: "r", Grade: FlowGradeQPS, Count: 1}
	cluster := func(c ClusterConfig) ClusterConfig { c.FallbackToLocalWhenFail = true; return c }
	for _, tc := range []struct {
		name  string
		flow  func(*FlowRule)
		param func(*ParamFlowRule)
		field string
	}{
		{"empty resource", func(r *FlowRule) { r.Resource = "" }, func(r *ParamFlowRule) { r.Resource = "" }, "Resource"},
		{"unknown grade", func(r *FlowRule) { r.Grade = 7 }, func(r *ParamFlowRule) { r.Grade = 7 }, "Grade"},
		{"negative count", func(r *FlowRule) { r.Count = -1 }, func(r *ParamFlowRule) { r.Count = -1 }, "Count"},
		{"negative wait", func(r *FlowRule) { r.MaxQueueingTimeMs = -1 }, func(r *ParamFlowRule) { r.MaxQueueingTimeMs = -1 }, "MaxQueueingTimeMs"},
		{"cluster without id", func(r *FlowRule) { r.ClusterMode, r.ClusterConfig = true, cluster(ClusterConfig{}) },
			func(r *ParamFlowRule) { r.ClusterMode, r.ClusterConfig = true, cluster(ClusterConfig{}) }, "ClusterConfig.FlowID"},
		{"cluster threshold type", func(r *FlowRule) {
			r.ClusterMode, r.ClusterConfig = true, cluster(ClusterConfig{FlowID: 1, ThresholdType: 9})
		},
			func(r *ParamFlowRule) {
				r.ClusterMode, r.ClusterConfig = true, cluster(ClusterConfig{FlowID: 1, ThresholdType: 9})
			}, "ClusterConfig.ThresholdType"},
		{"cluster window", func(r *FlowRule) {
			r.ClusterMode, r.ClusterConfig = true, cluster(ClusterConfig{FlowID: 1, WindowIntervalMs: -1})
		},
			func(r *ParamFlowRule) {
				r.ClusterMode, r.ClusterConfig = true, cluster(ClusterConfig{FlowID: 1, WindowIntervalMs: -1})
			},
			"ClusterConfig.WindowIntervalMs"},
		{"cluster under concurrency", func(r *FlowRule) {
			r.Grade, r.ClusterMode, r.ClusterConfig = FlowGradeConcurrency, true, cluster(ClusterConfig{FlowID: 1})
		}, func(r *ParamFlowRule) {
			r.Grade, r.ClusterMode, r.ClusterConfig = FlowGradeConcurrency, true, cluster(ClusterConfig{FlowID: 1})
		}, "ClusterMode"},
	} {
		f, p := flow, param
		tc.flow(&f)
		tc.param(&p)
		fr, pr := reasonFor(ValidateFlowRules([]FlowRule{f}), tc.field), reasonFor(ValidateParamFlowRules([]ParamFlowRule{p}), tc.field)
		if fr == "" || fr != pr {
			t.Errorf("%s: flow rule says %s %q, param-flow rule says %q", tc.name, tc.field, fr, pr)
		}
	}
}
