package runtime

import (
	"context"
	"errors"
	"testing"
)

// A load rebuilds the rule sets of the resources whose rules changed and
// leaves every other resource's rule set as it was (the same pointer).
func TestLoadRebuildsOnlyChangedResources(t *testing.T) {
	useManualClock(t)
	a, b, c := NewResource(uniqueName(t, "a")), NewResource(uniqueName(t, "b")), NewResource(uniqueName(t, "c"))
	flow := []FlowRule{
		{Resource: a.Name(), Grade: FlowGradeQPS, Count: 10},
		{Resource: b.Name(), Grade: FlowGradeQPS, Count: 20},
		{Resource: c.Name(), Grade: FlowGradeQPS, Count: 30},
	}
	degrade := []DegradeRule{{Resource: c.Name(), Grade: DegradeErrorCount, Count: 5, TimeWindowSec: 1}}
	if err := LoadRules(Rules{Flow: flow, Degrade: degrade}); err != nil {
		t.Fatal(err)
	}
	before := map[*Resource]*ruleSet{a: a.rules.Load(), b: b.rules.Load(), c: c.rules.Load()}

	flow[1].Count = 21
	mustLoadFlow(t, flow...)
	if a.rules.Load() != before[a] || c.rules.Load() != before[c] {
		t.Fatal("a flow load that changed b's rule rebuilt a or c")
	}
	if got := b.rules.Load(); got == before[b] || got.flow[0].rule.Count != 21 {
		t.Fatalf("b's rule set was not rebuilt with the new count")
	}

	// Moving a rule from one resource to another rebuilds both.
	before[b] = b.rules.Load()
	flow[1].Resource = a.Name()
	mustLoadFlow(t, flow...)
	if b.rules.Load() != nil {
		t.Fatal("b keeps a rule that moved to a")
	}
	if got := a.rules.Load(); len(got.flow) != 2 || got.flow[1].rule.Count != 21 {
		t.Fatalf("a has %d flow checks after gaining b's rule, want 2", len(a.rules.Load().flow))
	}
	if c.rules.Load() != before[c] {
		t.Fatal("moving a rule between a and b rebuilt c")
	}

	// A degrade load leaves resources with flow rules only alone.
	before[a] = a.rules.Load()
	degrade[0].Count = 6
	if err := LoadDegradeRules(degrade); err != nil {
		t.Fatal(err)
	}
	if a.rules.Load() != before[a] {
		t.Fatal("a degrade load rebuilt a resource without degrade rules")
	}
	if got := c.rules.Load(); got == before[c] || got.degrade[0].rule.Count != 6 || len(got.flow) != 1 {
		t.Fatal("c was not rebuilt with its new breaker and its flow rule")
	}
}

// A rule that moves to another position gets a block error naming its new
// index, even though its resource's rule is otherwise unchanged.
func TestLoadRenumbersShiftedRules(t *testing.T) {
	useManualClock(t)
	a, b := NewResource(uniqueName(t, "a")), NewResource(uniqueName(t, "b"))
	mustLoadFlow(t, FlowRule{Resource: a.Name(), Grade: FlowGradeQPS, Count: 0})
	mustLoadFlow(t,
		FlowRule{Resource: b.Name(), Grade: FlowGradeQPS, Count: 5},
		FlowRule{Resource: a.Name(), Grade: FlowGradeQPS, Count: 0})
	_, be := a.Entry(context.Background())
	if be == nil || be.Rule() != (FlowRule{Grade: FlowGradeQPS, Count: 0}).normalized().blockText(1) {
		t.Fatalf("block after the shift: %v, want flow rule #1", be)
	}
}

// A load whose only error is a changed resource over the breaker limit
// changes nothing; an unchanged resource is not re-counted but the check
// still holds for every resource that changed.
func TestLoadRejectsTooManyBreakersOnChangedResource(t *testing.T) {
	useManualClock(t)
	a, b := NewResource(uniqueName(t, "a")), NewResource(uniqueName(t, "b"))
	var degrade []DegradeRule
	for range maxDegradeRulesPerResource {
		degrade = append(degrade, DegradeRule{Resource: a.Name(), Grade: DegradeErrorCount, Count: 5, TimeWindowSec: 1})
	}
	if err := LoadDegradeRules(degrade); err != nil {
		t.Fatal(err)
	}
	before := a.rules.Load()
	bad := append(append([]DegradeRule(nil), degrade...), DegradeRule{Resource: b.Name(), Grade: DegradeErrorCount, Count: 5, TimeWindowSec: 1},
		DegradeRule{Resource: a.Name(), Grade: DegradeErrorCount, Count: 5, TimeWindowSec: 1})
	err := LoadDegradeRules(bad)
	var re *RuleError
	if !errors.As(err, &re) || re.Index != maxDegradeRulesPerResource+1 || re.Field != "Resource" {
		t.Fatalf("load with %d breakers on one resource: %v", maxDegradeRulesPerResource+1, err)
	}
	if a.rules.Load() != before || b.rules.Load() != nil || len(DegradeRules()) != maxDegradeRulesPerResource {
		t.Fatal("a failing load changed the rules in force")
	}
}
