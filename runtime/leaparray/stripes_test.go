package leaparray

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// A window holds no processor's stripe until it is written pinned; its
// first writer claims one, a second processor writes the shared stripe
// until that stripe turns busy, and every count survives the moves.
func TestStripesAreClaimedWhereWritten(t *testing.T) {
	if !stripe.Linked {
		t.Skip("no owned stripes without the linkname")
	}
	w, g := secondWithGauge(2)
	const nowMs = 10_000
	id := w.ID(nowMs)
	if n := w.Stripes(); n != 0 {
		t.Fatalf("new window has %d owned stripes, want 0", n)
	}
	w.cursor(id, stripe.Of(3)).Add(0, 1)
	g.AddPinned(1, stripe.Of(3))
	if n := w.Stripes(); n != 1 || !w.owns(3) {
		t.Fatalf("after the first pinned write: %d stripes, processor 3 owns one: %v", n, w.owns(3))
	}
	if g.cell(3) == g.shared {
		t.Fatal("the gauge did not follow its window's claim")
	}
	// Processor 5 writes less than sharedBusy: shared stripe, no claim.
	for range sharedBusy - 1 {
		w.cursor(id, stripe.Of(5)).Add(0, 1)
		g.AddPinned(1, stripe.Of(5))
	}
	if w.owns(5) || !w.sharedUsed.Load() {
		t.Fatalf("processor 5 owns a stripe (%v) or the shared one is unused (%v) after few writes", w.owns(5), w.sharedUsed.Load())
	}
	if got, want := w.Count(nowMs, 0), int64(sharedBusy); got != want {
		t.Fatalf("count %d, want %d", got, want)
	}
	// The write that takes a shared word across sharedBusy claims.
	w.cursor(id, stripe.Of(5)).Add(0, 1)
	if !w.owns(5) || w.Stripes() != 2 {
		t.Fatalf("processor 5 does not own a stripe after a busy shared stripe (%d stripes)", w.Stripes())
	}
	for range 10 {
		w.cursor(id, stripe.Of(5)).Add(0, 1)
		g.AddPinned(-1, stripe.Of(5))
	}
	if got, want := w.Count(nowMs, 0), int64(sharedBusy+11); got != want {
		t.Fatalf("count after the claim %d, want %d", got, want)
	}
	if got, want := g.Load(), int64(1+sharedBusy-1-10); got != want {
		t.Fatalf("gauge %d, want %d", got, want)
	}
	// Unpinned writes never claim, and reads see them.
	for range 2 * sharedBusy {
		w.Add(nowMs, 1, 1)
	}
	if w.Stripes() != 2 {
		t.Fatalf("unpinned writes claimed a stripe: %d", w.Stripes())
	}
	if got := w.Count(nowMs, 1); got != 2*sharedBusy {
		t.Fatalf("counter 1 holds %d, want %d", got, 2*sharedBusy)
	}
	w.Reset()
	if got := w.Count(nowMs, 0) + w.Count(nowMs, 1); got != 0 {
		t.Fatalf("after Reset the window holds %d", got)
	}
}

// Processors at or above maxOwned share the shared stripe and never claim.
func TestHighProcessorsShare(t *testing.T) {
	w := second(1)
	id := w.ID(0)
	for range 4 * sharedBusy {
		w.cursor(id, stripe.Of(maxOwned)).Add(0, 1)
	}
	if w.Stripes() != 0 {
		t.Fatalf("processor %d claimed a stripe", maxOwned)
	}
	if got := w.Count(0, 0); got != 4*sharedBusy {
		t.Fatalf("count %d, want %d", got, 4*sharedBusy)
	}
}
