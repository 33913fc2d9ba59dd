package runtime

import (
	"context"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// TestBlockTallyCountsEveryBlock blocks one resource from several
// processors at once, through the common path (Entry) and the general one
// (AcquireCount 2, through recordBlock), until its window is striped and
// its flow rule's error has a tally. Blocked must then count every block
// exactly once, and never go backwards while it is read concurrently.
func TestBlockTallyCountsEveryBlock(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(4))
	name := uniqueName(t, "tally")
	r := NewResource(name)
	if err := LoadRules(Rules{Flow: []FlowRule{{Resource: name, Grade: FlowGradeQPS, Count: 0}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = LoadRules(Rules{}) })
	be := r.BlockErrors(nil)[0]

	var want atomic.Uint64
	stop := make(chan struct{})
	readerDone := make(chan struct{})
	go func() { // Blocked never goes backwards
		defer close(readerDone)
		prev := be.Blocked()
		for {
			select {
			case <-stop:
				return
			default:
			}
			now := be.Blocked()
			if d := now - prev; d >= 1<<31 {
				t.Errorf("Blocked went back from %d to %d", prev, now)
				return
			}
			prev = now
		}
	}()
	ctx := context.Background()
	for round := 0; round < 200 && (round < 2 || atomic.LoadPointer(&be.tally) == nil); round++ {
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var n uint64
				for range 2000 {
					var err *BlockError
					if g%2 == 0 {
						_, err = r.Entry(ctx)
						n++
					} else {
						_, err = r.Entry(ctx, AcquireCount(2))
						n += 2
					}
					if err != be {
						t.Errorf("blocked by %v, want the flow rule's error", err)
						return
					}
				}
				want.Add(n)
			}()
		}
		wg.Wait()
	}
	close(stop)
	<-readerDone
	if stripe.Linked && atomic.LoadPointer(&be.tally) == nil {
		t.Fatalf("no tally after blocking from several processors (window stripes: %d)", r.stats.second.Stripes())
	}
	if got := be.Blocked(); uint64(got) != want.Load()%(1<<32) {
		t.Errorf("Blocked() = %d, want %d (tallied %d)", got, want.Load(), be.tallied())
	}
	if t.Failed() || !stripe.Linked {
		return
	}
	// The tally must have counted some of them: else it is made and unused.
	if be.tallied() == 0 {
		t.Errorf("the tally counted nothing of %d blocks", want.Load())
	}
}

// TestBlockTallyNotMadeFromOneProcessor checks that an error blocked from
// one processor at a time gets no tally (its memory is for contention).
func TestBlockTallyNotMadeFromOneProcessor(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	name := uniqueName(t, "untallied")
	r := NewResource(name)
	if err := LoadRules(Rules{Flow: []FlowRule{{Resource: name, Grade: FlowGradeQPS, Count: 0}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = LoadRules(Rules{}) })
	ctx := context.Background()
	for range 10_000 {
		if _, be := r.Entry(ctx); be == nil {
			t.Fatal("not blocked")
		}
	}
	be := r.BlockErrors(nil)[0]
	if atomic.LoadPointer(&be.tally) != nil {
		t.Error("a tally was made for blocks from one processor")
	}
	if got := be.Blocked(); got != 10_000 {
		t.Errorf("Blocked() = %d, want 10000", got)
	}
}
