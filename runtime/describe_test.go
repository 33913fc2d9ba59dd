package runtime

import "testing"

// The block texts loads build for every rule, pinned for each variant
// (they were rewritten to build in one buffer).
func TestRuleDescriptions(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{FlowRule{Grade: FlowGradeQPS, Count: 10.5}.describe(3), "flow rule #3 (QPS 10.5)"},
		{FlowRule{Grade: FlowGradeConcurrency, Count: 2}.describe(0), "flow rule #0 (concurrency 2)"},
		{FlowRule{Grade: FlowGradeQPS, Count: 1e21, ControlBehavior: BehaviorWarmUp}.describe(12), "flow rule #12 (QPS 1e+21, warm-up)"},
		{FlowRule{Grade: FlowGradeQPS, Count: 5, ControlBehavior: BehaviorRateLimiter, Strategy: StrategyRelate, RefResource: "db"}.describe(1),
			"flow rule #1 (QPS 5, rate limiter, related to db)"},
		{FlowRule{Grade: FlowGradeQPS, Count: 5, ControlBehavior: BehaviorWarmUpRateLimiter, Strategy: StrategyChain, RefResource: "web"}.describe(2),
			"flow rule #2 (QPS 5, warm-up rate limiter, via entrance web)"},
		{DegradeRule{Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10}.describe(4),
			"degrade rule #4 (slow ratio > 0.5 of calls over 100 ms, open 10 s)"},
		{DegradeRule{Grade: DegradeErrorRatio, Count: 0.25, TimeWindowSec: 1}.describe(0), "degrade rule #0 (error ratio > 0.25, open 1 s)"},
		{DegradeRule{Grade: DegradeErrorCount, Count: 7, TimeWindowSec: 30}.describe(99), "degrade rule #99 (error count > 7, open 30 s)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
