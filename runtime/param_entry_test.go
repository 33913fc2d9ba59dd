package runtime

import (
	"context"
	"errors"
	"testing"
	"time"
)

func mustLoad(t *testing.T, r Rules) {
	t.Helper()
	if err := LoadRules(r); err != nil {
		t.Fatal(err)
	}
}

// callArgs makes one call through EntryArgsTo and exits it at once.
func callArgs(r *Resource, args ...ParamArg) *BlockError {
	var e Entry
	if be := r.EntryArgsTo(&e, context.Background(), args); be != nil {
		return be
	}
	e.Exit()
	return nil
}

// Hot parameters are checked before flow rules (Sentinel's slot order): the
// hot value is refused by its own rule while the resource's flow budget
// still serves every other value.
func TestEntryParamBeforeFlow(t *testing.T) {
	clock := useManualClock(t)
	res := NewResource(uniqueName(t, "detail"))
	mustLoad(t, Rules{
		Flow:      []FlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 10}},
		ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 2}},
	})
	if !res.HasParamRules() {
		t.Fatal("HasParamRules false with a param rule")
	}
	hot := StringArg("sku-hot")
	var kinds []BlockType
	for range 5 {
		if be := callArgs(res, hot); be != nil {
			kinds = append(kinds, be.Type())
			if be.Value() != "sku-hot" {
				t.Fatalf("Value() = %q", be.Value())
			}
		}
	}
	if len(kinds) != 3 || kinds[0] != BlockTypeParamFlow {
		t.Fatalf("blocks %v, want 3 param-flow blocks", kinds)
	}
	for i := range 8 {
		if be := callArgs(res, StringArg("sku-"+string(rune('a'+i)))); be != nil {
			t.Fatalf("cold value %d refused by %v", i, be)
		}
	}
	if be := callArgs(res, StringArg("sku-z")); be == nil || be.Type() != BlockTypeFlow {
		t.Fatalf("11th pass not refused by the flow rule: %v", be)
	}
	if s := res.Snapshot(); s.Block != 4 || s.Pass != 10 {
		t.Fatalf("snapshot pass %d block %d, want 10 and 4", s.Pass, s.Block)
	}
	// EntryTo passes no arguments: param rules do not apply.
	clock.Advance(2 * time.Second)
	for range 3 {
		var e Entry
		if be := res.EntryTo(&e, context.Background()); be != nil {
			t.Fatalf("EntryTo refused: %v", be)
		}
		e.Exit()
	}
}

// Calls in flight per value are released at Exit, and when a later check
// (a flow rule) refuses a call the param checks admitted.
func TestEntryParamConcurrencyReleased(t *testing.T) {
	useManualClock(t)
	res := NewResource(uniqueName(t, "detail"))
	mustLoad(t, Rules{
		Flow:      []FlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 3}},
		ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeConcurrency, Count: 1}},
	})
	ctx := context.Background()
	v := []ParamArg{IntArg(7)}
	var a Entry
	if be := res.EntryArgsTo(&a, ctx, v); be != nil {
		t.Fatal(be)
	}
	var b Entry
	if be := res.EntryArgsTo(&b, ctx, v); be == nil || be.Type() != BlockTypeParamFlow {
		t.Fatalf("second call of 7 in flight: %v", be)
	}
	a.Exit()
	a.Exit() // a second Exit releases nothing more
	if be := res.EntryArgsTo(&b, ctx, v); be != nil {
		t.Fatalf("after Exit: %v", be)
	}
	b.Exit()
	// Two more passes spend the flow budget of 3; the next call is
	// admitted by the param rule, then refused by the flow rule, which
	// must give its place back.
	if callArgs(res, IntArg(8)) != nil {
		t.Fatal("8 refused")
	}
	if be := callArgs(res, IntArg(7)); be == nil || be.Type() != BlockTypeFlow {
		t.Fatalf("fourth pass: %v", be)
	}
	held := res.rules.Load().param.rules[0]
	node := held.table.Get(keyOf(IntArg(7)), held.table.Hash(keyOf(IntArg(7))))
	if n := node.Val.count.Load(); n != 0 {
		t.Fatalf("7 has %d calls in flight after a flow block", n)
	}
}

func TestEntryParamRateLimiterSleepsThroughClock(t *testing.T) {
	clock := useManualClock(t)
	res := NewResource(uniqueName(t, "detail"))
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 10,
		ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: 1000}}})
	start := clock.Now()
	for range 3 {
		if be := callArgs(res, StringArg("v")); be != nil {
			t.Fatal(be)
		}
	}
	if got := clock.Now() - start; got != 200*time.Millisecond {
		t.Fatalf("three calls 100 ms apart took %v, want 200ms", got)
	}
}

// A reload that keeps a param rule keeps its per-value budgets; an invalid
// param rule leaves every rule in force.
func TestEntryParamReload(t *testing.T) {
	useManualClock(t)
	res := NewResource(uniqueName(t, "detail"))
	pr := ParamFlowRule{Resource: res.Name(), Grade: FlowGradeQPS, Count: 1}
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{pr}})
	if callArgs(res, StringArg("v")) != nil {
		t.Fatal("first call refused")
	}
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{pr}, Flow: []FlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 100}}})
	if callArgs(res, StringArg("v")) == nil {
		t.Fatal("reload refilled an unchanged rule's bucket")
	}
	bad := pr
	bad.Items = []ParamFlowItem{{Object: "x", ClassType: "int", Count: 1}}
	err := LoadRules(Rules{ParamFlow: []ParamFlowRule{bad}})
	var re *RuleError
	if !errors.As(err, &re) || re.Kind != "param-flow" || re.Field != "Items[0].Object" {
		t.Fatalf("invalid item: %v", err)
	}
	if callArgs(res, StringArg("v")) == nil {
		t.Fatal("the rules in force changed after an invalid load")
	}
	mustLoad(t, Rules{})
	if res.HasParamRules() || callArgs(res, StringArg("v")) != nil {
		t.Fatal("param rule still in force after clearing")
	}
}

func TestEntryParamSteadyPathDoesNotAllocate(t *testing.T) {
	clock := useManualClock(t)
	res := NewResource(uniqueName(t, "detail"))
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 5}}})
	ctx := context.Background()
	sku := "sku-1"
	var args [1]ParamArg
	var e Entry
	pass := testing.AllocsPerRun(1000, func() {
		clock.Advance(1100 * time.Millisecond) // a refilled bucket each call
		args[0] = StringArg(sku)
		if be := res.EntryArgsTo(&e, ctx, args[:]); be != nil {
			t.Fatal(be)
		}
		e.Exit()
	})
	for callArgs(res, StringArg(sku)) == nil {
	}
	block := testing.AllocsPerRun(1000, func() {
		args[0] = StringArg(sku)
		if res.EntryArgsTo(&e, ctx, args[:]) == nil {
			t.Fatal("passed")
		}
	})
	if pass != 0 || block != 0 {
		t.Fatalf("allocs per pass %v, per block %v; want 0", pass, block)
	}
}
