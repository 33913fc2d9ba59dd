package runtime

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// ruleKindsOf returns the RuleError kinds err reports, in order.
func ruleKindsOf(err error) []string {
	var kinds []string
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var re *RuleError
		if errors.As(e, &re) {
			kinds = append(kinds, re.Kind)
		}
	}
	walk(err)
	return kinds
}

// LoadRules validates every kind and installs all of them or none: an
// invalid authority (or system) rule leaves the flow rules in force.
func TestLoadRulesAllOrNothingAcrossKinds(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	flow := []FlowRule{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1}}
	if err := LoadRules(Rules{Flow: flow}); err != nil {
		t.Fatal(err)
	}
	err := LoadRules(Rules{
		Flow:      []FlowRule{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100}},
		Authority: []AuthorityRule{{Resource: r.Name(), LimitApp: ""}},
		System:    []SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: 50, QPS: -1, AvgRT: -1, MaxThread: -1}},
	})
	if got := strings.Join(ruleKindsOf(err), ","); got != "authority,system" && got != "system,authority" {
		t.Fatalf("errors of kinds %q (%v), want authority and system", got, err)
	}
	if got := FlowRules(); len(got) != 1 || got[0] != flow[0] {
		t.Fatalf("flow rules in force %v after a refused load, want %v", got, flow)
	}
	if len(AuthorityRules()) != 0 || len(SystemRules()) != 0 {
		t.Fatal("a refused load installed authority or system rules")
	}
	call(r, clock, 0, nil)
	if ok, _ := call(r, clock, 0, nil); ok {
		t.Fatal("the Count 1 rule is not enforced after the refused load")
	}
}

// Each kind has its loader, getter and listener; loading one kind leaves
// the others as they are.
func TestPerKindLoadersGettersListeners(t *testing.T) {
	useManualClock(t)
	name := uniqueName(t, "r")
	var gotParam [][]ParamFlowRule
	var gotSystem [][]SystemRule
	var gotAuthority [][]AuthorityRule
	defer OnParamFlowRulesChange(func(r []ParamFlowRule) { gotParam = append(gotParam, r) })()
	defer OnSystemRulesChange(func(r []SystemRule) { gotSystem = append(gotSystem, r) })()
	defer OnAuthorityRulesChange(func(r []AuthorityRule) { gotAuthority = append(gotAuthority, r) })()

	param := []ParamFlowRule{{Resource: name, Grade: FlowGradeQPS, Count: 5, DurationInSec: 1, Items: []ParamFlowItem{{Object: "a", ClassType: "String", Count: 1}}}}
	system := []SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: 1000, AvgRT: -1, MaxThread: -1}}
	authority := []AuthorityRule{{Resource: name, LimitApp: "a,b", Strategy: AuthorityBlack}}
	mustLoadFlow(t, FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 10})
	if err := LoadParamFlowRules(param); err != nil {
		t.Fatal(err)
	}
	if err := LoadSystemRules(system); err != nil {
		t.Fatal(err)
	}
	if err := LoadAuthorityRules(authority); err != nil {
		t.Fatal(err)
	}
	if got := ParamFlowRules(); !reflect.DeepEqual(got, param) {
		t.Errorf("ParamFlowRules() = %v, want %v", got, param)
	}
	if got := SystemRules(); !reflect.DeepEqual(got, system) {
		t.Errorf("SystemRules() = %v, want %v", got, system)
	}
	if got := AuthorityRules(); !reflect.DeepEqual(got, authority) {
		t.Errorf("AuthorityRules() = %v, want %v", got, authority)
	}
	if len(FlowRules()) != 1 {
		t.Error("a load of another kind dropped the flow rules")
	}
	// Registration delivers the current rules (none), the load the new ones.
	if len(gotParam) != 2 || len(gotParam[0]) != 0 || !reflect.DeepEqual(gotParam[1], param) {
		t.Errorf("param listener got %v", gotParam)
	}
	if len(gotSystem) != 2 || !reflect.DeepEqual(gotSystem[1], system) {
		t.Errorf("system listener got %v", gotSystem)
	}
	if len(gotAuthority) != 2 || !reflect.DeepEqual(gotAuthority[1], authority) {
		t.Errorf("authority listener got %v", gotAuthority)
	}
	// Copies are deep: editing a returned rule's items changes nothing.
	ParamFlowRules()[0].Items[0].Count = 99
	gotParam[1][0].Items[0].Count = 98
	param[0].Items[0].Count = 97
	if got := ParamFlowRules()[0].Items[0].Count; got != 1 {
		t.Errorf("the rules in force share their items with a caller: count %d", got)
	}
	// A load of flow rules does not notify the other kinds.
	mustLoadFlow(t)
	if len(gotParam) != 2 || len(gotSystem) != 2 || len(gotAuthority) != 2 {
		t.Error("a flow load notified listeners of other kinds")
	}
}

// A param rule holds its items in a slice; a reload that changes only an
// item rebuilds that resource, and an identical reload rebuilds nothing.
func TestParamRuleDiffComparesItems(t *testing.T) {
	useManualClock(t)
	a, b := NewResource(uniqueName(t, "a")), NewResource(uniqueName(t, "b"))
	rules := []ParamFlowRule{
		{Resource: a.Name(), Grade: FlowGradeQPS, Count: 5, Items: []ParamFlowItem{{Object: "x", ClassType: "String", Count: 1}}},
		{Resource: b.Name(), Grade: FlowGradeQPS, Count: 5},
	}
	if err := LoadParamFlowRules(rules); err != nil {
		t.Fatal(err)
	}
	ra, rb := a.rules.Load(), b.rules.Load()
	if ra == nil || rb == nil {
		t.Fatal("param rules installed no rule set")
	}
	same := cloneParamRules(rules)
	if err := LoadParamFlowRules(same); err != nil {
		t.Fatal(err)
	}
	if a.rules.Load() != ra || b.rules.Load() != rb {
		t.Fatal("an identical param load rebuilt a resource")
	}
	same[0].Items[0].Count = 2
	if err := LoadParamFlowRules(same); err != nil {
		t.Fatal(err)
	}
	if a.rules.Load() == ra || b.rules.Load() != rb {
		t.Fatal("a load changing a's item did not rebuild a alone")
	}
}

// sameParamRule compares every field; a field added to ParamFlowRule must
// be added there too, or reloads would keep stale checks.
func TestSameParamRuleCoversEveryField(t *testing.T) {
	if n := reflect.TypeFor[ParamFlowRule]().NumField(); n != 11 {
		t.Fatalf("ParamFlowRule has %d fields; update sameParamRule and this test", n)
	}
	base := ParamFlowRule{Resource: "r", Items: []ParamFlowItem{{Object: "a"}}}
	edits := []func(*ParamFlowRule){
		func(r *ParamFlowRule) { r.Resource = "s" },
		func(r *ParamFlowRule) { r.Grade = FlowGradeConcurrency + 5 },
		func(r *ParamFlowRule) { r.ParamIdx = 1 },
		func(r *ParamFlowRule) { r.Count = 1 },
		func(r *ParamFlowRule) { r.ControlBehavior = BehaviorRateLimiter },
		func(r *ParamFlowRule) { r.MaxQueueingTimeMs = 1 },
		func(r *ParamFlowRule) { r.BurstCount = 1 },
		func(r *ParamFlowRule) { r.DurationInSec = 2 },
		func(r *ParamFlowRule) { r.Items = []ParamFlowItem{{Object: "b"}} },
		func(r *ParamFlowRule) { r.ClusterMode = true },
		func(r *ParamFlowRule) { r.ClusterConfig.FlowID = 7 },
	}
	if !sameParamRule(base, cloneParamRules([]ParamFlowRule{base})[0]) {
		t.Fatal("a copy differs")
	}
	for i, edit := range edits {
		r := cloneParamRules([]ParamFlowRule{base})[0]
		edit(&r)
		if sameParamRule(base, r) {
			t.Errorf("edit %d not seen", i)
		}
	}
}

// originCountingCtx counts how often the origin is read from it.
type originCountingCtx struct {
	context.Context
	reads *int
}

func (c originCountingCtx) Value(key any) any {
	if _, ok := key.(originKey); ok {
		*c.reads++
	}
	return c.Context.Value(key)
}

// The origin is read from the context only when a rule of the resource
// needs it, and a resource without rules of the new kinds passes through
// the checks as before.
func TestOriginReadOnlyWhenNeeded(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	reads := 0
	ctx := originCountingCtx{WithOrigin(context.Background(), "a"), &reads}
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100})
	callCtx(ctx, r, clock, 0, nil)
	if reads != 0 {
		t.Fatalf("origin read %d times without a rule that needs it", reads)
	}
	if err := LoadAuthorityRules([]AuthorityRule{{Resource: r.Name(), LimitApp: "b", Strategy: AuthorityBlack}}); err != nil {
		t.Fatal(err)
	}
	callCtx(ctx, r, clock, 0, nil)
	if reads != 1 {
		t.Fatalf("origin read %d times with an authority rule, want 1", reads)
	}
}
