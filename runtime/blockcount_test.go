package runtime

import (
	"context"
	"strconv"
	"testing"
	"time"
	"unsafe"
)

// TestBlockErrorStaysAt64Bytes checks that the block counter fits the
// padding of BlockError: a resource with a flow rule and a breaker holds
// two errors, and the memory budget counts on 64 bytes each.
func TestBlockErrorStaysAt64Bytes(t *testing.T) {
	if size := unsafe.Sizeof(BlockError{}); strconv.IntSize == 64 && size != 64 {
		t.Errorf("BlockError is %d bytes, want 64", size)
	}
}

// TestBlockErrorBlockedCounts checks that each rule's error counts the calls
// it blocked (times their acquire count), that BlockErrors lists the rules in
// force, and that a reload keeps the count of an unchanged rule.
func TestBlockErrorBlockedCounts(t *testing.T) {
	clock := useManualClock(t)
	name := uniqueName(t, "r")
	r := NewResource(name)
	flow := FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1}
	degrade := DegradeRule{Resource: name, Grade: DegradeErrorCount, Count: 1, MinRequestAmount: 1, TimeWindowSec: 10}
	if err := LoadRules(Rules{Flow: []FlowRule{flow}, Degrade: []DegradeRule{degrade}}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ok, _ := call(r, clock, time.Millisecond, nil); !ok {
		t.Fatal("first call blocked")
	}
	var blocks []*BlockError
	for range 3 {
		if _, be := r.Entry(ctx); be != nil {
			blocks = append(blocks, be)
		}
	}
	if _, be := r.Entry(ctx, AcquireCount(2)); be != nil {
		blocks = append(blocks, be)
	}
	if len(blocks) != 4 || blocks[0] != blocks[3] {
		t.Fatalf("blocks %v, want 4 by the same flow rule", blocks)
	}
	if got := blocks[0].Blocked(); got != 5 {
		t.Errorf("flow rule Blocked() = %d, want 5 (3 calls + acquire 2)", got)
	}
	errs := r.BlockErrors(nil)
	if len(errs) != 2 || errs[0] != blocks[0] || errs[1].Type() != BlockTypeDegrade {
		t.Fatalf("BlockErrors = %v, want the flow rule's then the breaker's", errs)
	}
	if got := errs[1].Blocked(); got != 0 {
		t.Errorf("breaker Blocked() = %d, want 0", got)
	}

	// A reload that rebuilds the resource's checks (its breaker changed)
	// with the flow rule unchanged at its index keeps the rule's error and
	// so the count.
	degrade.TimeWindowSec = 20
	if err := LoadRules(Rules{Flow: []FlowRule{flow}, Degrade: []DegradeRule{degrade}}); err != nil {
		t.Fatal(err)
	}
	if got := r.BlockErrors(nil)[0]; got != blocks[0] || got.Blocked() != 5 {
		t.Errorf("after a reload leaving the rule unchanged, the error is %p with Blocked() = %d, want %p with 5", got, got.Blocked(), blocks[0])
	}
	// Moved to another index, the rule gets a new error, counting from zero.
	other := FlowRule{Resource: uniqueName(t, "other"), Grade: FlowGradeQPS, Count: 5}
	if err := LoadRules(Rules{Flow: []FlowRule{other, flow}, Degrade: []DegradeRule{degrade}}); err != nil {
		t.Fatal(err)
	}
	if got := r.BlockErrors(nil)[0]; got == blocks[0] || got.Blocked() != 0 || got.Rule() != "flow rule #1 (QPS 1)" {
		t.Errorf("after the rule moved, the error is %q with Blocked() = %d, want a new one for #1 at 0", got.Rule(), got.Blocked())
	}
	// A changed rule starts from zero.
	flow.Count = 2
	if err := LoadRules(Rules{Flow: []FlowRule{flow}, Degrade: []DegradeRule{degrade}}); err != nil {
		t.Fatal(err)
	}
	if got := r.BlockErrors(nil)[0].Blocked(); got != 0 {
		t.Errorf("a changed rule's Blocked() = %d, want 0", got)
	}
	if got := NewResource(uniqueName(t, "none")).BlockErrors(nil); len(got) != 0 {
		t.Errorf("a resource without rules lists %v", got)
	}
}
