package rules

import (
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// clearRuntimeRules empties the runtime's rules now and after the test. The
// runtime's rules are global, so tests that apply rules do not run in
// parallel.
func clearRuntimeRules(t *testing.T) {
	t.Helper()
	if err := runtime.LoadRules(runtime.Rules{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
}

func TestApplyAndCurrent(t *testing.T) {
	clearRuntimeRules(t)
	s, err := Load("testdata/orders.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(s); err != nil {
		t.Fatal(err)
	}
	cur := Current()
	if !cur.Equal(s) {
		t.Fatalf("Current() = %+v\nwant %+v", cur, s)
	}
	if cur.FlowAt != nil || cur.DegradeAt != nil {
		t.Error("Current() invents positions")
	}
}

// An invalid degrade rule leaves the flow rules in force unchanged: Apply
// puts all kinds in force or none.
func TestApplyIsAtomic(t *testing.T) {
	clearRuntimeRules(t)
	good, err := parseText("good.toml", "[[flow]]\nresource = 'a'\ncount = 10\n[[degrade]]\nresource = 'a'\ntimeWindow = 5\ncount = 100\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(good); err != nil {
		t.Fatal(err)
	}

	bad := Set{
		Flow:      []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 99}},
		Degrade:   []runtime.DegradeRule{{Resource: "a", TimeWindowSec: 0}},
		FlowAt:    []Position{{File: "bad.toml", Line: 1}},
		DegradeAt: []Position{{File: "bad.toml", Line: 5}},
	}
	err = Apply(bad)
	if err == nil || !strings.Contains(err.Error(), "bad.toml:5: timeWindow: 0 must be > 0") {
		t.Fatalf("Apply(bad) = %v", err)
	}
	if flow := runtime.FlowRules(); len(flow) != 1 || flow[0].Count != 10 {
		t.Fatalf("flow rules after a rejected Apply: %+v", flow)
	}
	if !Current().Equal(good) {
		t.Fatalf("Current() = %+v, want the last good set", Current())
	}
}
