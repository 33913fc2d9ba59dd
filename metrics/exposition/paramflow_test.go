package exposition

import (
	"context"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestParamFlowBlocksCounted checks that calls refused by a hot-parameter
// rule are counted in sentinel_requests_total{result="block",
// block_type="param-flow"} and under their rule, over all refused values
// and their acquire counts, and that a reload keeping the rule counts no
// block twice.
func TestParamFlowBlocksCounted(t *testing.T) {
	r := newRig(t, t.Name()+"/detail")
	name := r.res.Name()
	rule := runtime.ParamFlowRule{Resource: name, Grade: runtime.FlowGradeQPS, Count: 1, DurationInSec: 10}
	flow := runtime.FlowRule{Resource: name, Grade: runtime.FlowGradeQPS, Count: 100}
	if err := runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{flow}, ParamFlow: []runtime.ParamFlowRule{rule}}); err != nil {
		t.Fatal(err)
	}
	x := New(r.s)
	enter := func(v string, acquire int) bool {
		var e runtime.Entry
		if be := r.res.EntryArgsTo(&e, context.Background(), []runtime.ParamArg{runtime.StringArg(v)}, runtime.AcquireCount(acquire)); be != nil {
			if be.Type() != runtime.BlockTypeParamFlow || be.Value() != v {
				t.Fatalf("blocked by %v (value %q), want param-flow on %q", be, be.Value(), v)
			}
			return false
		}
		e.Exit()
		return true
	}
	// sku-1: 1 pass, 3 blocks; sku-2: 1 pass, 1 block of acquire 2.
	passed := 0
	for _, c := range []struct {
		v       string
		acquire int
	}{{"sku-1", 1}, {"sku-1", 1}, {"sku-1", 1}, {"sku-1", 1}, {"sku-2", 1}, {"sku-2", 2}} {
		if enter(c.v, c.acquire) {
			passed++
		}
	}
	if passed != 2 {
		t.Fatalf("%d passes, want 2", passed)
	}
	r.endSecond()
	f := x.Families()
	if got := value(t, f, Requests, name, "block", "param-flow"); got != 5 {
		t.Errorf("param-flow blocks %v, want 5 (3 + acquire 2)", got)
	}
	text := "param-flow rule #0 (param 0, QPS 1 per 10s)"
	if got := value(t, f, RuleBlocked, name, "param-flow", text); got != 5 {
		t.Errorf("rule %q blocked %v, want 5", text, got)
	}
	if got := value(t, f, Requests, name, "pass", ""); got != 2 {
		t.Errorf("passes %v, want 2", got)
	}

	// A reload that changes the flow rule and keeps the param rule counts
	// the next block once.
	flow.Count = 200
	if err := runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{flow}, ParamFlow: []runtime.ParamFlowRule{rule}}); err != nil {
		t.Fatal(err)
	}
	if enter("sku-1", 1) {
		t.Fatal("sku-1 passed after the reload")
	}
	f = x.Families()
	if got := value(t, f, Requests, name, "block", "param-flow"); got != 6 {
		t.Errorf("param-flow blocks after a reload %v, want 6", got)
	}
	if got := value(t, f, RuleBlocked, name, "param-flow", text); got != 6 {
		t.Errorf("rule blocked after a reload %v, want 6", got)
	}
}
