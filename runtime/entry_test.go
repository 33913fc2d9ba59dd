package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/ticket"
)

// A second Exit through a copy of the Entry does nothing: the call counts
// once, so a concurrency limit of 1 still admits one call at a time.
func TestExitThroughCopyCountsOnce(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 1})
	e, be := r.Entry(t.Context())
	if be != nil {
		t.Fatal(be)
	}
	e2 := e
	e.Exit()
	e2.Exit()
	e2.TraceError(errBusiness)
	s := r.Snapshot()
	if s.Concurrency != 0 || s.Success != 1 || s.Error != 0 {
		t.Fatalf("after Exit and an Exit through a copy: %+v, want concurrency 0, 1 success, 0 errors", s)
	}
	first, be := r.Entry(t.Context())
	if be != nil {
		t.Fatal(be)
	}
	defer first.Exit()
	if _, be := r.Entry(t.Context()); be == nil {
		t.Fatal("a concurrency limit of 1 admitted a second call")
	}
}

// Copies made before Exit and exited later, from several goroutines, never
// count a call twice, and a copy kept past its call cannot end a later one.
func TestStaleCopiesDoNotEndOtherCalls(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	var stale []Entry
	for range 5000 {
		e, _ := r.Entry(t.Context())
		stale = append(stale, e)
		e.Exit()
	}
	live, _ := r.Entry(t.Context())
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := g; i < len(stale); i += 4 {
				stale[i].Exit()
			}
		}()
	}
	for range 4 {
		<-done
	}
	if s := r.Snapshot(); s.Concurrency != 1 || s.Success != 5000 {
		t.Fatalf("stale copies changed the counts: %+v, want concurrency 1 (the live call), 5000 successes", s)
	}
	live.Exit()
	if c := r.Snapshot().Concurrency; c != 0 {
		t.Fatalf("concurrency %d after the live call's Exit", c)
	}
}

// Calls in flight never lose their ticket to later calls, however many are
// in flight (more than a processor's slots): each one's Exit still counts.
func TestManyCallsInFlightEachExitCounts(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	const n = 3 * ticket.Slots
	entries := make([]Entry, n)
	for i := range entries {
		entries[i], _ = r.Entry(t.Context())
	}
	if c := r.Snapshot().Concurrency; c != n {
		t.Fatalf("concurrency %d, want %d", c, n)
	}
	for i := range entries {
		entries[i].Exit()
	}
	if s := r.Snapshot(); s.Concurrency != 0 || s.Success != n {
		t.Fatalf("after every Exit: %+v, want concurrency 0 and %d successes", s, n)
	}
}

// A call that never ends (a stream kept open, an Entry leaked) holds its
// ticket slot; the calls that come to that slot later skip it and still get
// a ticket, so copies of them are still harmless.
func TestHeldSlotIsSkipped(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	var held []Entry
	for range 3 {
		e, _ := r.Entry(t.Context())
		held = append(held, e) // never exited until the end
	}
	for range 4 * ticket.Slots {
		e, _ := r.Entry(t.Context())
		c := e
		e.Exit()
		c.Exit()
	}
	if s := r.Snapshot(); s.Concurrency != 3 || s.Success != 4*ticket.Slots {
		t.Fatalf("with 3 calls in flight, exits through copies changed the counts: %+v, want concurrency 3, %d successes", s, 4*ticket.Slots)
	}
	for _, e := range held {
		e.Exit()
	}
}

// An Entry entered in place takes no exit ticket, on the direct path and
// on enterGeneral's (an option sends the call there); it still ends its call
// once however often Exit is called on it, and records what a ticketed
// call records. The mark holds for one entry only.
func TestEntryInPlaceTakesNoTicket(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100})
	for _, opts := range [][]EntryOption{nil, {AcquireCount(1)}} {
		before := r.Snapshot()
		var e Entry
		if be := r.EntryTo(e.InPlace(), t.Context(), opts...); be != nil {
			t.Fatal(be)
		}
		if e.ticket != 0 || e.inPlace {
			t.Fatalf("options %v: entered in place, the Entry has ticket %#x and mark %v, want none", opts, e.ticket, e.inPlace)
		}
		if c := r.Concurrency(); c != 1 {
			t.Fatalf("options %v: %d calls in flight, want 1", opts, c)
		}
		clock.Advance(3 * time.Millisecond)
		e.Exit()
		e.Exit()
		after := r.Snapshot()
		if after.Pass-before.Pass != 1 || after.Success-before.Success != 1 || after.Concurrency != 0 {
			t.Fatalf("options %v: one call entered in place and exited twice: %+v then %+v, want one pass and one success", opts, before, after)
		}
		// The mark is gone: the next entry into the same value takes a ticket.
		if be := r.EntryTo(&e, t.Context(), opts...); be != nil {
			t.Fatal(be)
		}
		if e.ticket == 0 {
			t.Fatalf("options %v: entered again without InPlace, the Entry took no ticket", opts)
		}
		e.Exit()
	}
}

// Entered in place and copied, an Entry counts its call once per copy
// exited, as Entry.InPlace says; without InPlace the copy's Exit does
// nothing. This pins the documented price of entering in place.
func TestEntryInPlaceCopiedCountsEachCopy(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	for _, inPlace := range []bool{false, true} {
		before := r.Snapshot().Success
		var e Entry
		p := &e
		if inPlace {
			p = e.InPlace()
		}
		if be := r.EntryTo(p, t.Context()); be != nil {
			t.Fatal(be)
		}
		copied := e
		e.Exit()
		copied.Exit()
		want := int64(1)
		if inPlace {
			want = 2
		}
		if got := r.Snapshot().Success - before; got != want {
			t.Fatalf("in place %v: an Entry and its copy exited count %d successes, want %d", inPlace, got, want)
		}
	}
}

// A blocked call entered in place leaves the zero Entry, mark included, on
// the common path and on enterGeneral's.
func TestEntryInPlaceBlockedLeavesZeroEntry(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 0})
	for _, opts := range [][]EntryOption{nil, {AcquireCount(1)}} {
		var e Entry
		if be := r.EntryTo(e.InPlace(), t.Context(), opts...); be == nil {
			t.Fatalf("options %v: a Count 0 rule admitted the call", opts)
		}
		if e != (Entry{}) {
			t.Fatalf("options %v: blocked in place, the Entry is %+v, want the zero Entry", opts, e)
		}
	}
}

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
