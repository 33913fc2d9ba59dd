package runtime

import (
	"context"
	"testing"
)

// TestClusterRulesAreCheckedLast: Sentinel checks a resource's cluster-mode
// flow rules after its local ones, whatever the load order, so a call a
// local rule blocks never asks the token service for a token it would then
// waste.
func TestClusterRulesAreCheckedLast(t *testing.T) {
	useManualClock(t)
	svc := &fakeTokenService{result: TokenResult{Status: TokenOK}}
	useTokenService(t, svc)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, clusterRule(r.Name(), 100, true), FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1})
	first, be := r.Entry(context.Background())
	if be != nil {
		t.Fatalf("first call blocked: %v", be)
	}
	defer first.Exit()
	e, be := r.Entry(context.Background())
	if be == nil {
		e.Exit()
		t.Fatal("the local rule of count 1 let a second call through")
	}
	if n := svc.calls(); n != 1 {
		t.Fatalf("the token service was asked %d times, want 1: the call the local rule blocked asked it too", n)
	}
	if be.Rule() != (FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1}).normalized().describe(1) {
		t.Fatalf("blocked by %q, want the local rule, still named by its load index 1", be.Rule())
	}
}
