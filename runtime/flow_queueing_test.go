package runtime

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// A rate limiter rule that would park callers longer than the bound is
// refused, naming the rule; at the bound it loads; the bound can be moved
// and lifted.
func TestMaxQueueingTimeIsBounded(t *testing.T) {
	defer SetMaxQueueingTime(SetMaxQueueingTime(0))
	name := uniqueName(t, "res")
	rule := func(ms int) FlowRule {
		return FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 10, ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: ms}
	}
	err := ValidateFlowRules([]FlowRule{rule(500), rule(math.MaxInt32)})
	var re *RuleError
	if !errors.As(err, &re) || re.Index != 1 || re.Field != "MaxQueueingTimeMs" || !strings.Contains(re.Reason, "10000 ms") {
		t.Fatalf("a rule waiting 2147483647 ms: %v", err)
	}
	if err := LoadFlowRules([]FlowRule{rule(math.MaxInt32)}); err == nil {
		t.Error("LoadFlowRules took a rule waiting 2147483647 ms")
	}
	if err := ValidateFlowRules([]FlowRule{rule(int(DefaultMaxQueueingTime.Milliseconds()))}); err != nil {
		t.Errorf("a rule at the bound: %v", err)
	}
	param := ParamFlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1, ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: 60_000}
	if err := ValidateParamFlowRules([]ParamFlowRule{param}); err == nil || !strings.Contains(err.Error(), "MaxQueueingTimeMs") {
		t.Errorf("a hot-parameter rule waiting a minute: %v", err)
	}
	if prev := SetMaxQueueingTime(2 * time.Minute); prev != DefaultMaxQueueingTime {
		t.Errorf("previous bound %v", prev)
	}
	if err := ValidateParamFlowRules([]ParamFlowRule{param}); err != nil {
		t.Errorf("a minute's wait under a two-minute bound: %v", err)
	}
	SetMaxQueueingTime(math.MaxInt64)
	if err := ValidateFlowRules([]FlowRule{rule(math.MaxInt)}); err != nil {
		t.Errorf("bound lifted: %v", err)
	}
	SetMaxQueueingTime(0)
	if MaxQueueingTime() != DefaultMaxQueueingTime {
		t.Errorf("bound after reset %v", MaxQueueingTime())
	}
}
