package runtime

import (
	"slices"
	"testing"
)

func TestParamNames(t *testing.T) {
	names := []string{"sku", "region"}
	r := NewResource(uniqueName(t, "detail"), WithParamNames(names...))
	names[0] = "changed" // the option keeps its own copy
	if got := r.ParamNames(); !slices.Equal(got, []string{"sku", "region"}) {
		t.Fatalf("ParamNames() = %v", got)
	}
	r.ParamNames()[0] = "x" // and so does the accessor
	if i, ok := r.ParamIndex("region"); !ok || i != 1 {
		t.Fatalf("ParamIndex(region) = %d, %v", i, ok)
	}
	if _, ok := r.ParamIndex("x"); ok {
		t.Fatal("ParamIndex found a name never declared")
	}
	// Options apply on the first declaring call only.
	if got := NewResource(r.Name(), WithParamNames("other")).ParamNames(); !slices.Equal(got, []string{"sku", "region"}) {
		t.Fatalf("redeclared: %v", got)
	}
	// A resource created by a rule, then declared, gets its names.
	name := uniqueName(t, "late")
	useManualClock(t)
	mustLoad(t, Rules{ParamFlow: []ParamFlowRule{{Resource: name, Grade: FlowGradeQPS, Count: 1}}})
	if got := NewResource(name, WithParamNames("id")).ParamNames(); !slices.Equal(got, []string{"id"}) {
		t.Fatalf("declared after a rule: %v", got)
	}
	if NewResource(uniqueName(t, "plain")).ParamNames() != nil {
		t.Fatal("names without WithParamNames")
	}
}
