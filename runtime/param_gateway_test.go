package runtime

import (
	"testing"
)

// blocksAfter calls res with arg n times and reports how many were refused.
func blocksAfter(res *Resource, arg ParamArg, n int) int {
	refused := 0
	for range n {
		if callArgs(res, arg) != nil {
			refused++
		}
	}
	return refused
}

func clearGatewayParams(t *testing.T) {
	t.Cleanup(func() {
		_ = LoadGatewayParamFlowRules(nil)
		_ = LoadRules(Rules{})
	})
}

// A load of the user's hot-parameter rules (a rules file reload goes
// through LoadRules) keeps the gateway's limits in force, and the user's
// rules read back without them.
func TestUserParamLoadKeepsGatewayRules(t *testing.T) {
	useManualClock(t)
	clearGatewayParams(t)
	gw, user := NewResource(uniqueName(t, "gw")), NewResource(uniqueName(t, "user"))
	if err := LoadGatewayParamFlowRules([]ParamFlowRule{{Resource: gw.Name(), Grade: FlowGradeQPS, Count: 1}}); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{{Resource: user.Name(), Grade: FlowGradeQPS, Count: 2}}})
	if err := LoadParamFlowRules([]ParamFlowRule{{Resource: user.Name(), Grade: FlowGradeQPS, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	if got := blocksAfter(gw, StringArg("a"), 3); got != 2 {
		t.Fatalf("gateway resource: %d of 3 refused, want 2 (gateway rule count 1 dropped by a user load?)", got)
	}
	if got := blocksAfter(user, StringArg("a"), 3); got != 1 {
		t.Fatalf("user resource: %d of 3 refused, want 1", got)
	}
	if got := ParamFlowRules(); len(got) != 1 || got[0].Resource != user.Name() {
		t.Fatalf("ParamFlowRules() = %+v, want the user's rule only", got)
	}
	if got := GatewayParamFlowRules(); len(got) != 1 || got[0].Resource != gw.Name() {
		t.Fatalf("GatewayParamFlowRules() = %+v", got)
	}
}

// A gateway reload keeps the user's rules, and does not notify the user's
// param listeners (their rules did not change).
func TestGatewayLoadKeepsUserRules(t *testing.T) {
	useManualClock(t)
	clearGatewayParams(t)
	gw, user := NewResource(uniqueName(t, "gw")), NewResource(uniqueName(t, "user"))
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{{Resource: user.Name(), Grade: FlowGradeQPS, Count: 1}}})
	var seen [][]ParamFlowRule
	unregister := OnParamFlowRulesChange(func(r []ParamFlowRule) { seen = append(seen, r) })
	defer unregister()
	for _, n := range []float64{5, 1} {
		if err := LoadGatewayParamFlowRules([]ParamFlowRule{{Resource: gw.Name(), Grade: FlowGradeQPS, Count: n}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := blocksAfter(user, StringArg("a"), 3); got != 2 {
		t.Fatalf("user resource: %d of 3 refused, want 2 (user rule dropped by a gateway load?)", got)
	}
	if got := blocksAfter(gw, StringArg("a"), 3); got != 2 {
		t.Fatalf("gateway resource: %d of 3 refused, want 2", got)
	}
	if len(seen) != 1 || len(seen[0]) != 1 || seen[0][0].Resource != user.Name() {
		t.Fatalf("listener saw %+v, want only the registration call with the user's rule", seen)
	}
}

// Either list's invalid load changes nothing, in either list.
func TestGatewayParamLoadsAreAllOrNothing(t *testing.T) {
	useManualClock(t)
	clearGatewayParams(t)
	gw, user := NewResource(uniqueName(t, "gw")), NewResource(uniqueName(t, "user"))
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{{Resource: user.Name(), Grade: FlowGradeQPS, Count: 1}}})
	if err := LoadGatewayParamFlowRules([]ParamFlowRule{{Resource: gw.Name(), Grade: FlowGradeQPS, Count: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := LoadGatewayParamFlowRules([]ParamFlowRule{{Resource: gw.Name(), Grade: FlowGradeQPS, Count: 9}, {Resource: "", Count: 1}}); err == nil {
		t.Fatal("invalid gateway rule accepted")
	}
	if err := LoadRules(Rules{
		Flow:      []FlowRule{{Resource: user.Name(), Count: 100}},
		ParamFlow: []ParamFlowRule{{Resource: user.Name(), Count: -1}},
	}); err == nil {
		t.Fatal("invalid user rule accepted")
	}
	if got := GatewayParamFlowRules(); len(got) != 1 || got[0].Count != 1 {
		t.Fatalf("gateway rules after failed loads: %+v", got)
	}
	if got := ParamFlowRules(); len(got) != 1 || got[0].Count != 1 {
		t.Fatalf("user rules after failed loads: %+v", got)
	}
	if len(FlowRules()) != 0 {
		t.Fatal("flow rule of a failed LoadRules installed")
	}
	if got := blocksAfter(gw, StringArg("a"), 3); got != 2 {
		t.Fatalf("gateway resource: %d of 3 refused, want 2", got)
	}
	if got := blocksAfter(user, StringArg("a"), 3); got != 2 {
		t.Fatalf("user resource: %d of 3 refused, want 2", got)
	}
}
