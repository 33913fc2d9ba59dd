package runtime

import (
	"errors"
	goruntime "runtime"
	"slices"
	"testing"
)

// The list a load keeps in force is patched in place when few positions
// differ; whatever the path, it holds exactly the rules loaded, it never
// aliases the caller's slice, and positions dropped by a shorter list are
// gone.
func TestLoadKeepsItsOwnListAcrossEdits(t *testing.T) {
	useManualClock(t)
	names := scaleNames("kept", 40)
	t.Cleanup(func() { _ = LoadRules(Rules{}); forgetResources(names) })
	rules := scaleFlowRules(names)
	steps := []func([]FlowRule) []FlowRule{
		func(r []FlowRule) []FlowRule { return r },                                       // first load: a copy
		func(r []FlowRule) []FlowRule { r[7].Count = 1; return r },                       // one edit: patched
		func(r []FlowRule) []FlowRule { return r[:39] },                                  // one removed: patched
		func(r []FlowRule) []FlowRule { return append(r, FlowRule{Resource: names[0]}) }, // one added: within capacity
		func(r []FlowRule) []FlowRule { r[3], r[4] = r[4], r[3]; return r },              // two moved
		func(r []FlowRule) []FlowRule { return r[:2] },                                   // most removed: a copy
		func(r []FlowRule) []FlowRule { return scaleFlowRules(names) },                   // most added: a copy
	}
	for k, step := range steps {
		rules = step(rules)
		if err := LoadFlowRules(rules); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(rules)
		for i := range rules {
			rules[i].Count = 1e9 // the caller's slice is the caller's
		}
		if got := FlowRules(); !slices.Equal(got, want) {
			t.Fatalf("step %d: %d rules in force, want the %d loaded", k, len(got), len(want))
		}
		for i, n := range names {
			rs := lookupResource(n).rules.Load()
			var wantCounts, gotCounts []float64
			for _, r := range want {
				if r.Resource == n {
					wantCounts = append(wantCounts, r.Count)
				}
			}
			if rs != nil {
				for _, f := range rs.flow {
					gotCounts = append(gotCounts, f.rule.Count)
				}
			}
			if !slices.Equal(gotCounts, wantCounts) {
				t.Fatalf("step %d: resource %d has checks %v, want %v", k, i, gotCounts, wantCounts)
			}
		}
		copy(rules, want)
	}
}

// A reload that edits one rule among many checks and keeps that rule only:
// it allocates a few bytes per rule in force (the position chains), not a
// copy of every rule.
func TestChangeOneRuleAllocatesNoListCopy(t *testing.T) {
	const n = 20_000
	names := scaleNames("changeone", n)
	t.Cleanup(func() { _ = LoadRules(Rules{}); forgetResources(names) })
	flow, degrade := scaleFlowRules(names), scaleDegradeRules(names)
	if err := LoadRules(Rules{Flow: flow, Degrade: degrade}); err != nil {
		t.Fatal(err)
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	for i := range 4 {
		flow[n/2].Count = float64(i + 1)
		if err := LoadFlowRules(flow); err != nil {
			t.Fatal(err)
		}
		degrade[n/3].TimeWindowSec = i + 2
		if err := LoadDegradeRules(degrade); err != nil {
			t.Fatal(err)
		}
	}
	goruntime.ReadMemStats(&after)
	// 8 loads; a copy of either list is over 60 bytes per rule.
	if perRule := float64(after.TotalAlloc-before.TotalAlloc) / 8 / n; perRule > 24 {
		t.Errorf("a reload changing one rule allocated %.1f bytes per rule in force, want at most 24", perRule)
	}
}

// A reload validates the rules that differ from those in force, and an
// invalid one among them still fails the whole load, naming its position.
func TestReloadWithOneInvalidRuleChangesNothing(t *testing.T) {
	useManualClock(t)
	names := scaleNames("badedit", 100)
	t.Cleanup(func() { _ = LoadRules(Rules{}); forgetResources(names) })
	flow, degrade := scaleFlowRules(names), scaleDegradeRules(names)
	auth := []AuthorityRule{{Resource: names[0], Strategy: AuthorityWhite, LimitApp: "a"}, {Resource: names[1], Strategy: AuthorityBlack, LimitApp: "b"}}
	if err := LoadRules(Rules{Flow: flow, Degrade: degrade, Authority: auth}); err != nil {
		t.Fatal(err)
	}
	sets := make([]*ruleSet, len(names))
	for i, n := range names {
		sets[i] = lookupResource(n).rules.Load()
	}
	badFlow, badDegrade, badAuth := slices.Clone(flow), slices.Clone(degrade), slices.Clone(auth)
	badFlow[50].Count = -1
	badDegrade[70].TimeWindowSec = 0
	badAuth[1].LimitApp = " b"
	cases := []struct {
		kind  string
		index int
		load  func() error
	}{
		{"flow", 50, func() error { return LoadFlowRules(badFlow) }},
		{"degrade", 70, func() error { return LoadDegradeRules(badDegrade) }},
		{"authority", 1, func() error { return LoadAuthorityRules(badAuth) }},
		{"flow", 50, func() error { return LoadRules(Rules{Flow: badFlow, Degrade: degrade, Authority: auth}) }},
	}
	for _, c := range cases {
		var re *RuleError
		if err := c.load(); !errors.As(err, &re) || re.Kind != c.kind || re.Index != c.index {
			t.Errorf("load with an invalid %s rule #%d: %v", c.kind, c.index, err)
		}
	}
	if !slices.Equal(FlowRules(), flow) || !slices.Equal(DegradeRules(), degrade) || !slices.Equal(AuthorityRules(), auth) {
		t.Fatal("a failing reload changed the rules in force")
	}
	for i, n := range names {
		if lookupResource(n).rules.Load() != sets[i] {
			t.Fatalf("a failing reload replaced resource %d's rule set", i)
		}
	}
}
