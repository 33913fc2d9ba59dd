package runtime

import (
	"context"
	"testing"
	"time"
)

// TestRelateStrategy: reads are limited by the write traffic; the written
// resource is declared only after the rule is loaded.
func TestRelateStrategy(t *testing.T) {
	clock := useManualClock(t)
	readName, writeName := uniqueName(t, "read"), uniqueName(t, "write")
	mustLoadFlow(t, FlowRule{Resource: readName, Grade: FlowGradeQPS, Count: 3,
		Strategy: StrategyRelate, RefResource: writeName})
	read := NewResource(readName)
	write := NewResource(writeName)

	for range 10 { // no writes: reads are not limited by their own traffic
		if ok, be := call(read, clock, 0, nil); !ok {
			t.Fatalf("read blocked without writes: %v", be)
		}
	}
	for range 3 {
		call(write, clock, 0, nil)
	}
	if ok, _ := call(read, clock, 0, nil); ok {
		t.Fatal("read passed while writes are at the limit")
	}
	if ok, _ := call(write, clock, 0, nil); !ok {
		t.Fatal("the rule limited the related resource itself")
	}
	clock.Advance(time.Second)
	if ok, _ := call(read, clock, 0, nil); !ok {
		t.Fatal("read blocked after the write traffic stopped")
	}
}

// TestRelateConcurrency: a concurrency relate rule reads the related
// resource's calls in flight.
func TestRelateConcurrency(t *testing.T) {
	clock := useManualClock(t)
	report, export := NewResource(uniqueName(t, "report")), NewResource(uniqueName(t, "export"))
	mustLoadFlow(t, FlowRule{Resource: report.Name(), Grade: FlowGradeConcurrency, Count: 1,
		Strategy: StrategyRelate, RefResource: export.Name()})
	e, _ := export.Entry(context.Background())
	if ok, _ := call(report, clock, 0, nil); ok {
		t.Fatal("report passed with an export in flight")
	}
	e.Exit()
	if ok, _ := call(report, clock, 0, nil); !ok {
		t.Fatal("report blocked with no export in flight")
	}
}

// TestChainStrategy: the rule limits only calls entering through its
// entrance, counting only those calls.
func TestChainStrategy(t *testing.T) {
	clock := useManualClock(t)
	db := NewResource(uniqueName(t, "db"))
	entA, entB := uniqueName(t, "entrance-a"), uniqueName(t, "entrance-b")
	mustLoadFlow(t, FlowRule{Resource: db.Name(), Grade: FlowGradeQPS, Count: 2,
		Strategy: StrategyChain, RefResource: entA})
	ctxA := WithEntrance(context.Background(), entA)
	ctxB := WithEntrance(context.Background(), entB)
	if EntranceFrom(ctxA) != entA || EntranceFrom(context.Background()) != "" {
		t.Fatal("EntranceFrom does not return what WithEntrance set")
	}

	for range 5 { // other entrances and no entrance are not limited, nor counted
		if ok, _ := callCtx(ctxB, db, clock, 0, nil); !ok {
			t.Fatal("call via another entrance blocked")
		}
		if ok, _ := callCtx(context.Background(), db, clock, 0, nil); !ok {
			t.Fatal("call without entrance blocked")
		}
	}
	for i := range 2 {
		if ok, _ := callCtx(ctxA, db, clock, 0, nil); !ok {
			t.Fatalf("call %d via the entrance blocked", i)
		}
	}
	if ok, _ := callCtx(ctxA, db, clock, 0, nil); ok {
		t.Fatal("third call via the entrance passed")
	}
	// Derived contexts keep the entrance.
	type key struct{}
	if ok, _ := callCtx(context.WithValue(ctxA, key{}, 1), db, clock, 0, nil); ok {
		t.Fatal("call via a context derived from the entrance passed")
	}
	if s := db.Snapshot(); s.Pass != 12 || s.Block != 2 {
		t.Fatalf("resource snapshot pass %d block %d, want 12 and 2", s.Pass, s.Block)
	}
}

// TestChainRulesForTwoEntrances: each chain rule judges only its entrance.
func TestChainRulesForTwoEntrances(t *testing.T) {
	clock := useManualClock(t)
	db := NewResource(uniqueName(t, "db"))
	entA, entB := uniqueName(t, "a"), uniqueName(t, "b")
	mustLoadFlow(t,
		FlowRule{Resource: db.Name(), Grade: FlowGradeQPS, Count: 1, Strategy: StrategyChain, RefResource: entA},
		FlowRule{Resource: db.Name(), Grade: FlowGradeQPS, Count: 3, Strategy: StrategyChain, RefResource: entB},
	)
	count := func(ctx context.Context) int {
		n := 0
		for range 10 {
			if ok, _ := callCtx(ctx, db, clock, 0, nil); ok {
				n++
			}
		}
		return n
	}
	if n := count(WithEntrance(context.Background(), entA)); n != 1 {
		t.Fatalf("entrance a: %d passed, want 1", n)
	}
	if n := count(WithEntrance(context.Background(), entB)); n != 3 {
		t.Fatalf("entrance b: %d passed, want 3", n)
	}
}
