package runtime

import (
	"testing"
	"time"
)

// An Entry entered in place takes no exit ticket, on the common path and
// on enterAny's (an option sends the call there); it still ends its call
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
// the common path and on enterAny's.
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
