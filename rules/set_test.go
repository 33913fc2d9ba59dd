package rules

import (
	"slices"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestMergeConcatenatesRulesPositionsAndWarnings(t *testing.T) {
	a := Set{
		Flow:     []runtime.FlowRule{{Resource: "a"}},
		FlowAt:   []Position{{File: "a.toml", Line: 2}},
		Warnings: []*Error{{Msg: "wa"}},
	}
	b := Set{
		Flow:      []runtime.FlowRule{{Resource: "b"}, {Resource: "c"}},
		Degrade:   []runtime.DegradeRule{{Resource: "d"}},
		FlowAt:    []Position{{File: "b.json", Path: "[0]"}, {File: "b.json", Path: "[1]"}},
		DegradeAt: []Position{{File: "b.json", Path: "[0]"}},
		Warnings:  []*Error{{Msg: "wb"}},
	}
	m := a.Merge(b)
	if got := []string{m.Flow[0].Resource, m.Flow[1].Resource, m.Flow[2].Resource}; !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("flow order = %v", got)
	}
	if !slices.Equal(m.FlowAt, append(a.FlowAt, b.FlowAt...)) || !slices.Equal(m.DegradeAt, b.DegradeAt) {
		t.Errorf("positions = %v / %v", m.FlowAt, m.DegradeAt)
	}
	if len(m.Warnings) != 2 || m.Warnings[0].Msg != "wa" || m.Warnings[1].Msg != "wb" {
		t.Errorf("warnings = %v", m.Warnings)
	}
	// The merge owns its slices: changing it leaves the parts alone.
	m.Flow[0].Resource = "changed"
	if a.Flow[0].Resource != "a" {
		t.Error("Merge aliases its receiver's rules")
	}
}

func TestMergePadsMissingPositions(t *testing.T) {
	code := Set{Flow: []runtime.FlowRule{{Resource: "a"}, {Resource: "b"}}} // built in code: no positions
	file := Set{Flow: []runtime.FlowRule{{Resource: "c"}}, FlowAt: []Position{{File: "f.toml", Line: 3}}}
	m := code.Merge(file)
	want := []Position{{}, {}, {File: "f.toml", Line: 3}}
	if !slices.Equal(m.FlowAt, want) {
		t.Fatalf("FlowAt = %v, want %v", m.FlowAt, want)
	}
	if m.DegradeAt != nil {
		t.Fatalf("DegradeAt = %v, want nil", m.DegradeAt)
	}
	if code.Merge(code).FlowAt != nil {
		t.Fatal("merging sets without positions invented some")
	}
}

func TestEqual(t *testing.T) {
	base := Set{
		Flow:    []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 10}},
		Degrade: []runtime.DegradeRule{{Resource: "a", Count: 100, TimeWindowSec: 5}},
	}
	same := func(mod func(*Set)) Set {
		s := Set{Flow: slices.Clone(base.Flow), Degrade: slices.Clone(base.Degrade)}
		mod(&s)
		return s
	}
	cases := []struct {
		name  string
		other Set
		want  bool
	}{
		{"identical", same(func(*Set) {}), true},
		{"positions and warnings ignored", same(func(s *Set) {
			s.FlowAt = []Position{{File: "x", Line: 1}}
			s.Warnings = []*Error{{Msg: "w"}}
		}), true},
		{"zero cold factor equals the default", same(func(s *Set) { s.Flow[0].ColdFactor = runtime.DefaultColdFactor }), true},
		{"zero stat interval equals the default", same(func(s *Set) {
			s.Flow[0].StatIntervalMs = 1000
			s.Degrade[0].StatIntervalMs = 1000
		}), true},
		{"zero min request amount equals the default", same(func(s *Set) { s.Degrade[0].MinRequestAmount = 5 }), true},
		{"zero cluster window equals the default", same(func(s *Set) { s.Flow[0].ClusterConfig.WindowIntervalMs = 1000 }), true},
		{"other count", same(func(s *Set) { s.Flow[0].Count = 11 }), false},
		{"other cold factor", same(func(s *Set) { s.Flow[0].ColdFactor = 4 }), false},
		{"other degrade window", same(func(s *Set) { s.Degrade[0].TimeWindowSec = 6 }), false},
		{"cluster fallback differs", same(func(s *Set) { s.Flow[0].ClusterConfig.FallbackToLocalWhenFail = true }), false},
		{"extra rule", same(func(s *Set) { s.Flow = append(s.Flow, s.Flow[0]) }), false},
		{"missing degrade", same(func(s *Set) { s.Degrade = nil }), false},
	}
	for _, c := range cases {
		if got := base.Equal(c.other); got != c.want {
			t.Errorf("%s: Equal = %v, want %v", c.name, got, c.want)
		}
		if got := c.other.Equal(base); got != c.want {
			t.Errorf("%s: reversed Equal = %v, want %v", c.name, got, c.want)
		}
	}
	if !(Set{}).Equal(Set{Flow: []runtime.FlowRule{}}) {
		t.Error("nil and empty rule lists differ")
	}
	swapped := Set{Flow: []runtime.FlowRule{{Resource: "a"}, {Resource: "b"}}}
	if swapped.Equal(Set{Flow: []runtime.FlowRule{{Resource: "b"}, {Resource: "a"}}}) {
		t.Error("order of rules ignored")
	}
}

// Normalizing fills exactly the fields whose zero the runtime reads as a
// default, keeps values that are set, and is idempotent.
func TestNormalize(t *testing.T) {
	f := NormalizeFlow(runtime.FlowRule{Resource: "a", Count: 10})
	if f.ColdFactor != runtime.DefaultColdFactor || f.StatIntervalMs != runtime.DefaultStatIntervalMs ||
		f.ClusterConfig.WindowIntervalMs != runtime.DefaultStatIntervalMs || f.LimitApp != "default" || f.Resource != "a" || f.Count != 10 {
		t.Errorf("NormalizeFlow of zeros = %+v", f)
	}
	if NormalizeFlow(f) != f {
		t.Error("NormalizeFlow is not idempotent")
	}
	set := runtime.FlowRule{ColdFactor: 4, StatIntervalMs: 500, LimitApp: "app-a", ClusterConfig: runtime.ClusterConfig{WindowIntervalMs: 200}}
	if NormalizeFlow(set) != set {
		t.Errorf("NormalizeFlow changed set fields: %+v", NormalizeFlow(set))
	}

	d := NormalizeDegrade(runtime.DegradeRule{Resource: "a", TimeWindowSec: 5})
	if d.MinRequestAmount != runtime.DefaultMinRequestAmount || d.StatIntervalMs != runtime.DefaultStatIntervalMs || d.TimeWindowSec != 5 {
		t.Errorf("NormalizeDegrade of zeros = %+v", d)
	}
	setD := runtime.DegradeRule{MinRequestAmount: 20, StatIntervalMs: 2000}
	if NormalizeDegrade(setD) != setD {
		t.Errorf("NormalizeDegrade changed set fields: %+v", NormalizeDegrade(setD))
	}
}

// Only splits a set by kind; the parts merge back into the whole.
func TestOnly(t *testing.T) {
	s := mustParseText(t, "all.toml", allKindsTOML)
	var back Set
	for _, k := range Kinds() {
		part := s.Only(k)
		if part.IsEmpty() {
			t.Errorf("no %s rules", k)
		}
		back = back.Merge(part)
	}
	if !back.Equal(s) {
		t.Errorf("merged parts %+v, want %+v", back, s)
	}
	if o := s.Only(KindSystem); len(o.Flow)+len(o.ParamFlow) != 0 || len(o.SystemAt) != 1 {
		t.Errorf("Only(system) = %+v", o)
	}
	if !s.Only("gateway").IsEmpty() {
		t.Error("Only of an unknown kind is not empty")
	}
}
