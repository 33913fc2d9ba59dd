package runtime

import (
	"sync"
	"sync/atomic"
	"testing"
)

// The block texts loads build for every rule, pinned for each variant, so
// that a change to how they are built cannot change what they say.
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

// A load formats no block message: a flow check's and a breaker's errors
// are formatted from their rules when first read, once, with the text an
// eagerly built error had, whichever goroutines read them first.
func TestBlockErrorTextFormattedOnFirstRead(t *testing.T) {
	useManualClock(t)
	name := uniqueName(t, "lazy")
	r := NewResource(name)
	flow := FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 5, ClusterMode: true,
		ClusterConfig: ClusterConfig{FlowID: 7, ThresholdType: Global}}
	degrade := DegradeRule{Resource: name, Grade: DegradeErrorRatio, Count: 0.5, TimeWindowSec: 3}
	other := FlowRule{Resource: uniqueName(t, "other"), Grade: FlowGradeQPS, Count: 1}
	if err := LoadRules(Rules{Flow: []FlowRule{other, flow}, Degrade: []DegradeRule{degrade}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = LoadRules(Rules{}) })
	rs := r.rules.Load()
	cases := []struct {
		be            *BlockError
		typ           BlockType
		rule, ruleTxt string
	}{
		{rs.flow[0].blocked, BlockTypeFlow, "flow", flow.normalized().blockText(1)},
		{rs.degrade[0].blocked, BlockTypeDegrade, "degrade", degrade.normalized().describe(0)},
	}
	for _, c := range cases {
		if atomic.LoadPointer(&c.be.text) != nil || c.be.msg != "" {
			t.Fatalf("%s error formatted at the load", c.rule)
		}
		want := "sentinel: " + c.rule + " block on resource " + name + " by " + c.ruleTxt
		var wg sync.WaitGroup
		got := make([][3]string, 8)
		for g := range got {
			wg.Go(func() { got[g] = [3]string{c.be.Error(), c.be.Rule(), c.be.Resource()} })
		}
		wg.Wait()
		for _, g := range got {
			if g != [3]string{want, c.ruleTxt, name} {
				t.Errorf("%s error reads %q, want %q", c.rule, g, [3]string{want, c.ruleTxt, name})
			}
		}
		if c.be.Type() != c.typ || c.be.Value() != "" || c.be.Origin() != "" {
			t.Errorf("%s error: type %v, value %q, origin %q", c.rule, c.be.Type(), c.be.Value(), c.be.Origin())
		}
	}
}
