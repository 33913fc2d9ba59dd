package gateway

import (
	"errors"
	"math"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// reasonFor is the reason err, joined *RuleError or *runtime.RuleError
// values, gives for field, or "" when it names no such field.
func reasonFor(err error, field string) string {
	if err == nil {
		return ""
	}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var gw *RuleError
		if errors.As(e, &gw) && gw.Field == field {
			return gw.Reason
		}
		var rt *runtime.RuleError
		if errors.As(e, &rt) && rt.Field == field {
			return rt.Reason
		}
	}
	return ""
}

// A gateway rule's mistakes read as the runtime's param-flow rule reports
// the same mistake: one set of messages, whichever layer finds it.
func TestRuleReasonsAreTheRuntimes(t *testing.T) {
	ok := FlowRule{Resource: "r", Grade: runtime.FlowGradeQPS, Count: 1, IntervalSec: 1}
	rt := runtime.ParamFlowRule{Resource: "r", Grade: runtime.FlowGradeQPS, Count: 1}
	for _, tc := range []struct {
		name         string
		gw           func(*FlowRule)
		rt           func(*runtime.ParamFlowRule)
		field, rtFld string
	}{
		{"empty resource", func(r *FlowRule) { r.Resource = "" }, func(r *runtime.ParamFlowRule) { r.Resource = "" }, "resource", "Resource"},
		{"unknown grade", func(r *FlowRule) { r.Grade = 7 }, func(r *runtime.ParamFlowRule) { r.Grade = 7 }, "grade", "Grade"},
		{"negative count", func(r *FlowRule) { r.Count = -2 }, func(r *runtime.ParamFlowRule) { r.Count = -2 }, "count", "Count"},
		{"infinite count", func(r *FlowRule) { r.Count = math.Inf(1) }, func(r *runtime.ParamFlowRule) { r.Count = math.Inf(1) }, "count", "Count"},
		{"warm-up", func(r *FlowRule) { r.ControlBehavior = runtime.BehaviorWarmUp },
			func(r *runtime.ParamFlowRule) { r.ControlBehavior = runtime.BehaviorWarmUp }, "controlBehavior", "ControlBehavior"},
		{"rate limiter under concurrency", func(r *FlowRule) {
			r.Grade, r.ControlBehavior = runtime.FlowGradeConcurrency, runtime.BehaviorRateLimiter
		}, func(r *runtime.ParamFlowRule) {
			r.Grade, r.ControlBehavior = runtime.FlowGradeConcurrency, runtime.BehaviorRateLimiter
		}, "controlBehavior", "ControlBehavior"},
		{"negative burst", func(r *FlowRule) { r.Burst = -1 }, func(r *runtime.ParamFlowRule) { r.BurstCount = -1 }, "burst", "BurstCount"},
		{"negative wait", func(r *FlowRule) { r.MaxQueueingTimeoutMs = -1 },
			func(r *runtime.ParamFlowRule) { r.MaxQueueingTimeMs = -1 }, "maxQueueingTimeoutMs", "MaxQueueingTimeMs"},
		{"wait over the bound", func(r *FlowRule) { r.MaxQueueingTimeoutMs = 1 << 30 },
			func(r *runtime.ParamFlowRule) { r.MaxQueueingTimeMs = 1 << 30 }, "maxQueueingTimeoutMs", "MaxQueueingTimeMs"},
	} {
		g, p := ok, rt
		tc.gw(&g)
		tc.rt(&p)
		got := reasonFor(Validate([]FlowRule{g}, nil), tc.field)
		want := reasonFor(runtime.ValidateParamFlowRules([]runtime.ParamFlowRule{p}), tc.rtFld)
		if want == "" {
			t.Errorf("%s: the runtime accepts the rule", tc.name)
			continue
		}
		if got != want {
			t.Errorf("%s: gateway says %s: %q, runtime says %s: %q", tc.name, tc.field, got, tc.rtFld, want)
		}
	}
}
