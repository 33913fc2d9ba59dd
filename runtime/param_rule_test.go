package runtime

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestInvalidParamFlowRules(t *testing.T) {
	base := ParamFlowRule{Resource: "r", Grade: FlowGradeQPS, Count: 5}
	cases := []struct {
		edit  func(*ParamFlowRule)
		field string
	}{
		{func(r *ParamFlowRule) { r.Resource = "" }, "Resource"},
		{func(r *ParamFlowRule) { r.Grade = 7 }, "Grade"},
		{func(r *ParamFlowRule) { r.Count = -1 }, "Count"},
		{func(r *ParamFlowRule) { r.Count = 1 / zero() }, "Count"},
		{func(r *ParamFlowRule) { r.ControlBehavior = BehaviorWarmUp }, "ControlBehavior"},
		{func(r *ParamFlowRule) { r.ControlBehavior = -1 }, "ControlBehavior"},
		{func(r *ParamFlowRule) { r.Grade, r.ControlBehavior = FlowGradeConcurrency, BehaviorRateLimiter }, "ControlBehavior"},
		{func(r *ParamFlowRule) { r.MaxQueueingTimeMs = -1 }, "MaxQueueingTimeMs"},
		{func(r *ParamFlowRule) { r.BurstCount = -1 }, "BurstCount"},
		{func(r *ParamFlowRule) { r.DurationInSec = -1 }, "DurationInSec"},
		{func(r *ParamFlowRule) { r.Items = []ParamFlowItem{{Object: "x", ClassType: "int", Count: 1}} }, "Items[0].Object"},
		{func(r *ParamFlowRule) { r.Items = []ParamFlowItem{{Object: "x", ClassType: "Date", Count: 1}} }, "Items[0].ClassType"},
		{func(r *ParamFlowRule) { r.Items = []ParamFlowItem{{Object: "x", Count: -1}} }, "Items[0].Count"},
		{func(r *ParamFlowRule) {
			r.Items = []ParamFlowItem{{Object: "7", ClassType: "int", Count: 1}, {Object: "7", ClassType: "long", Count: 2}}
		}, "Items[1].Object"},
		{func(r *ParamFlowRule) {
			r.ClusterMode, r.ClusterConfig = true, ClusterConfig{FlowID: 0, FallbackToLocalWhenFail: true}
		}, "ClusterConfig.FlowID"},
		{func(r *ParamFlowRule) {
			r.ClusterMode, r.ClusterConfig = true, ClusterConfig{FlowID: 1, ThresholdType: 5, FallbackToLocalWhenFail: true}
		}, "ClusterConfig.ThresholdType"},
		{func(r *ParamFlowRule) { r.ClusterMode, r.ClusterConfig = true, ClusterConfig{FlowID: 1} }, "ClusterConfig.FallbackToLocalWhenFail"},
		{func(r *ParamFlowRule) {
			r.Grade, r.ClusterMode, r.ClusterConfig = FlowGradeConcurrency, true, ClusterConfig{FlowID: 1, FallbackToLocalWhenFail: true}
		}, "ClusterMode"},
	}
	for _, c := range cases {
		r := base
		c.edit(&r)
		err := ValidateParamFlowRules([]ParamFlowRule{base, r})
		var re *RuleError
		if !errors.As(err, &re) {
			t.Errorf("%s: no RuleError (%v)", c.field, err)
			continue
		}
		if re.Kind != "param-flow" || re.Index != 1 || re.Field != c.field {
			t.Errorf("got %+v, want param-flow rule 1 field %s", re, c.field)
		}
		if !strings.Contains(err.Error(), "param-flow rule #1") {
			t.Errorf("message %q does not name the rule", err)
		}
	}
	good := []ParamFlowRule{
		base,
		{Resource: "r", Grade: FlowGradeConcurrency, Count: 0, ParamIdx: -1},
		{Resource: "r", Grade: FlowGradeQPS, Count: 5, ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: 500, DurationInSec: 3},
		{Resource: "r", Grade: FlowGradeQPS, Count: 5, Items: []ParamFlowItem{{Object: "7", ClassType: "int", Count: 0}, {Object: "7", Count: 1}}},
		{Resource: "r", Grade: FlowGradeQPS, Count: 5, ClusterMode: true, ClusterConfig: ClusterConfig{FlowID: 3, FallbackToLocalWhenFail: true}},
	}
	if err := ValidateParamFlowRules(good); err != nil {
		t.Fatalf("valid rules rejected: %v", err)
	}
}

func zero() float64 { return 0 }

// sameParamRule compares fields by name: a field added to ParamFlowRule
// must be added there too, or reloads would keep state across a change.
func TestSameParamRuleSeesEveryField(t *testing.T) {
	if n := reflect.TypeFor[ParamFlowRule]().NumField(); n != 11 {
		t.Fatalf("ParamFlowRule has %d fields; update sameParamRule and this count", n)
	}
	a := ParamFlowRule{Resource: "r", Grade: FlowGradeQPS, Count: 1, Items: []ParamFlowItem{{Object: "a", Count: 1}}}
	edits := []func(*ParamFlowRule){
		func(r *ParamFlowRule) { r.Resource = "s" },
		func(r *ParamFlowRule) { r.Grade = FlowGradeConcurrency },
		func(r *ParamFlowRule) { r.ParamIdx = 1 },
		func(r *ParamFlowRule) { r.Count = 2 },
		func(r *ParamFlowRule) { r.ControlBehavior = BehaviorRateLimiter },
		func(r *ParamFlowRule) { r.MaxQueueingTimeMs = 1 },
		func(r *ParamFlowRule) { r.BurstCount = 1 },
		func(r *ParamFlowRule) { r.DurationInSec = 2 },
		func(r *ParamFlowRule) { r.Items = []ParamFlowItem{{Object: "a", Count: 2}} },
		func(r *ParamFlowRule) { r.ClusterMode = true },
		func(r *ParamFlowRule) { r.ClusterConfig.FlowID = 1 },
	}
	for i, e := range edits {
		b := a
		b.Items = append([]ParamFlowItem(nil), a.Items...)
		e(&b)
		if sameParamRule(a, b) {
			t.Errorf("edit %d not seen", i)
		}
	}
	c := a
	c.Items = append([]ParamFlowItem(nil), a.Items...)
	if !sameParamRule(a, c) {
		t.Error("equal rules differ")
	}
}
