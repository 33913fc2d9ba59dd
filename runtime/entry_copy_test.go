package runtime

import (
	"testing"

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
