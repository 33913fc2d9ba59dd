package runtime

import (
	"context"
	"testing"
)

// EntryTo fills the Entry in place: an admitted call is the same call
// Entry returns (it counts, it exits once, a copy exits nothing), and a
// blocked call leaves the zero Entry, even in a variable that held an
// earlier, still running call; that call is unaffected.
func TestEntryToFillsAndClears(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 1})
	ctx := context.Background()
	var e Entry
	if be := r.EntryTo(&e, ctx); be != nil {
		t.Fatal(be)
	}
	running := e
	if be := r.EntryTo(&e, ctx); be == nil {
		t.Fatal("a concurrency limit of 1 admitted a second call")
	}
	if e != (Entry{}) {
		t.Fatalf("blocked EntryTo left %+v, want the zero Entry", e)
	}
	e.Exit() // the zero Entry: nothing
	if s := r.Snapshot(); s.Concurrency != 1 {
		t.Fatalf("concurrency %d after a blocked EntryTo, want the running call's 1", s.Concurrency)
	}
	copied := running
	running.Exit()
	copied.Exit()
	if s := r.Snapshot(); s.Concurrency != 0 || s.Success != 1 || s.Block != 1 {
		t.Fatalf("after Exit and a copy's Exit: %+v, want concurrency 0, 1 success, 1 block", s)
	}
}

// EntryTo allocates nothing on the pass and block paths.
func TestEntryToDoesNotAllocate(t *testing.T) {
	useManualClock(t)
	pass := NewResource(uniqueName(t, "pass"))
	block := NewResource(uniqueName(t, "block"))
	if err := LoadRules(Rules{Flow: []FlowRule{
		{Resource: pass.Name(), Grade: FlowGradeQPS, Count: 1e12},
		{Resource: block.Name(), Grade: FlowGradeQPS, Count: 0},
	}, Degrade: []DegradeRule{{Resource: pass.Name(), Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10}}}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var e Entry
	if allocs := testing.AllocsPerRun(200, func() {
		if be := pass.EntryTo(&e, ctx); be != nil {
			t.Fatal(be)
		}
		e.Exit()
		if be := block.EntryTo(&e, ctx); be == nil {
			t.Fatal("not blocked")
		}
	}); allocs != 0 {
		t.Errorf("%v allocations per pass and block", allocs)
	}
}
