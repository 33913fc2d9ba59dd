package runtime

import (
	"context"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// TestBlockErrorFitsItsHolders checks that the allocations holding block
// errors stay in the allocator's size classes the memory budget was
// measured with: a flow check or a circuit breaker with its error in 288
// bytes (newFlowCheck and newBreaker allocate each pair as one), a refused
// hot value's error with its base in 80.
func TestBlockErrorFitsItsHolders(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("the classes are those of 64-bit platforms")
	}
	be := unsafe.Sizeof(BlockError{})
	for _, h := range []struct {
		what        string
		size, class uintptr
	}{
		{"flow check and error", unsafe.Sizeof(flowCheck{}) + be, 288},
		{"breaker and error", unsafe.Sizeof(breaker{}) + be, 288},
		{"refused value's error", unsafe.Sizeof(valueBlock{}), 80},
	} {
		if h.size > h.class {
			t.Errorf("%s: %d bytes, beyond the %d-byte size class", h.what, h.size, h.class)
		}
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

// TestBlockErrorsListsAuthorityAndSystem checks that the errors of
// authority rules (a black list's, made at load, and a white list's, made
// at a refusal) and of system protection are listed with their counts.
func TestBlockErrorsListsAuthorityAndSystem(t *testing.T) {
	useManualClock(t)
	black := NewResource(uniqueName(t, "black"))
	white := NewResource(uniqueName(t, "white"), WithTrafficType(TrafficInbound))
	if err := LoadRules(Rules{
		Authority: []AuthorityRule{
			{Resource: black.Name(), Strategy: AuthorityBlack, LimitApp: "bad,worse"},
			{Resource: white.Name(), Strategy: AuthorityWhite, LimitApp: "good"},
		},
		System: []SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: -1, AvgRT: -1, MaxThread: 1}},
	}); err != nil {
		t.Fatal(err)
	}
	bad := WithOrigin(context.Background(), "bad")
	for range 3 {
		if _, be := black.Entry(bad); be == nil {
			t.Fatal("the black list let origin bad through")
		}
	}
	errs := black.BlockErrors(nil)
	if len(errs) != 2 || errs[0].Origin() != "bad" || errs[0].Blocked() != 3 || errs[1].Origin() != "worse" || errs[1].Blocked() != 0 {
		t.Fatalf("black list errors %v, want bad (3 blocks) then worse (0)", errs)
	}

	if _, be := white.Entry(WithOrigin(context.Background(), "evil")); be == nil || be.Type() != BlockTypeAuthority {
		t.Fatalf("the white list let origin evil through (%v)", be)
	}
	// Two calls in flight, then system protection (one at most) blocks.
	good := WithOrigin(context.Background(), "good")
	for i := range 2 {
		e, be := white.Entry(good)
		if be != nil {
			t.Fatalf("good call %d blocked: %v", i+1, be)
		}
		defer e.Exit()
	}
	if _, be := white.Entry(good); be == nil || be.Type() != BlockTypeSystem {
		t.Fatalf("third good call: %v, want a system block", be)
	}
	var authority, system uint32
	for _, e := range white.BlockErrors(nil) {
		switch e.Type() {
		case BlockTypeAuthority:
			authority += e.Blocked()
		case BlockTypeSystem:
			system += e.Blocked()
		}
	}
	if authority != 1 || system != 1 {
		t.Errorf("white list resource: %d authority and %d system blocks listed, want 1 and 1", authority, system)
	}
}

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
