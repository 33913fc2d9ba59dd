package lint

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// checksOf lists the check ids of ds, in order.
func checksOf(ds []Diagnostic) []string {
	var ids []string
	for _, d := range ds {
		ids = append(ids, d.Check)
	}
	return ids
}

// A set built in code has no positions: findings name rules by their place
// in the set, as rules.Validate does.
func TestRunNamesRulesOfSetsBuiltInCode(t *testing.T) {
	pkg := &annotate.Package{Resources: []*annotate.Resource{{Name: "a"}}}
	set := rules.Set{
		Flow:    []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 10}, {Resource: "b", Grade: runtime.FlowGradeQPS, Count: 10}},
		Degrade: []runtime.DegradeRule{{Resource: "a", Grade: runtime.DegradeSlowRatio, Count: 100, TimeWindowSec: 1, MinRequestAmount: 3}},
	}
	ds := Run([]*annotate.Package{pkg}, set, Options{})
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	want := []string{
		`degrade[0]: [breaker-without-handler] "a" has circuit breakers but its directive names no blockHandler, fallback or defaultFallback: an open breaker reaches every caller as an error; add a fallback that answers locally`,
		`degrade[0]: [min-request-amount] breaker for "a" judges after only 3 calls: on a low-traffic resource one hiccup among a few calls opens it; set minRequestAmount to about QPS x 10, at least 20`,
		`flow[1]: [unknown-resource] resource "b" is neither declared by a //sentinel:resource directive nor registered with runtime.NewResource, so the rule guards nothing; did you mean a?`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !HasErrors(ds) {
		t.Error("HasErrors is false with an unknown-resource error")
	}
}

func TestRunDisable(t *testing.T) {
	set := rules.Set{Flow: []runtime.FlowRule{{Resource: "x", Grade: runtime.FlowGradeQPS, Count: 1}}}
	if ds := Run(nil, set, Options{}); len(ds) != 1 || ds[0].Check != "unknown-resource" {
		t.Fatalf("without Disable: %v", checksOf(ds))
	}
	if ds := Run(nil, set, Options{Disable: []string{"unknown-resource"}}); len(ds) != 0 {
		t.Errorf("unknown-resource disabled, still got %v", checksOf(ds))
	}
}

func TestDiagnosticJSON(t *testing.T) {
	d := Diagnostic{
		Pos:   rules.Position{File: "flow.json", Line: 3, Path: "[0]"},
		Check: "unknown-resource", Severity: Error, Message: "m", Suggestion: "createOrder",
	}
	b, err := json.Marshal([]Diagnostic{d, {Check: "coarse-window", Severity: Warning, Message: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"file":"flow.json","line":3,"path":"[0]","check":"unknown-resource","severity":"error","message":"m","suggestion":"createOrder"},` +
		`{"file":"","line":0,"path":"","check":"coarse-window","severity":"warning","message":"w"}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if s := d.String(); s != "flow.json:3: [0]: [unknown-resource] m" {
		t.Errorf("String() = %q", s)
	}
}

// Every check has an id, a summary and a lesson, and ids are unique: -list
// and Options.Disable rely on them.
func TestChecksTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Checks() {
		if c.ID == "" || c.Summary == "" || c.Lesson == "" || c.run == nil {
			t.Errorf("check %q is incomplete", c.ID)
		}
		if seen[c.ID] {
			t.Errorf("check id %q twice", c.ID)
		}
		seen[c.ID] = true
	}
}
