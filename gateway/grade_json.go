package gateway

import (
	"encoding/json"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Sentinel numbers flow grades 0 (thread) and 1 (QPS); runtime.FlowGrade
// has QPS as its zero value. JSON carries Sentinel's numbers both ways, so
// a rule the dashboard or a Java service wrote means the same here.

// flowGradeOf is the FlowGrade for Sentinel's grade number n. A number
// Sentinel does not know is kept out of the valid range, so validation
// names it.
func flowGradeOf(n int32) runtime.FlowGrade {
	switch n {
	case 0:
		return runtime.FlowGradeConcurrency
	case 1:
		return runtime.FlowGradeQPS
	}
	return runtime.FlowGrade(max(n, 2))
}

// sentinelGradeOf is Sentinel's grade number for g.
func sentinelGradeOf(g runtime.FlowGrade) int32 {
	switch g {
	case runtime.FlowGradeConcurrency:
		return 0
	case runtime.FlowGradeQPS:
		return 1
	}
	return int32(g)
}

// MarshalJSON writes r as Sentinel's GatewayFlowRule, with Sentinel's
// grade number, so that ParseFlowRules reads back the same rule.
func (r FlowRule) MarshalJSON() ([]byte, error) {
	type plain FlowRule // without this method
	return json.Marshal(struct {
		plain
		Grade int32 `json:"grade"`
	}{plain(r), sentinelGradeOf(r.Grade)})
}
