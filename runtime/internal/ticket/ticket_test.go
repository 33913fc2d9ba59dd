package ticket

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// end ends t as Exit does: on p's own block through OwnSlot and EndOwn,
// any other ticket through EndElsewhere.
func end(b *Book, t ID, p stripe.P) bool {
	if s := b.OwnSlot(t, p); s != nil {
		return b.EndOwn(s, t)
	}
	return b.EndElsewhere(t)
}

// A ticket ends once: the first end reports true, every later one false,
// on the processor that took it and on any other.
func TestTicketEndsOnce(t *testing.T) {
	b := newOwned(4)
	for _, p := range []stripe.P{stripe.Of(0), stripe.Of(3), stripe.Shared, stripe.Of(7)} {
		tk, _ := b.Take(p)
		if tk == 0 {
			t.Fatalf("processor %d: Take gave the zero ticket on a free block", p.Index())
		}
		if !end(b, tk, p) {
			t.Fatalf("processor %d: the first end of %#x reported ended already", p.Index(), tk)
		}
		if end(b, tk, p) || end(b, tk, stripe.Of(1)) {
			t.Fatalf("processor %d: a second end of %#x reported ending the call", p.Index(), tk)
		}
	}
}

// A ticket taken on one processor and ended on another goes through
// EndElsewhere and still ends once; OwnSlot finds only tickets of the
// pinned processor's own block.
func TestTicketEndedElsewhere(t *testing.T) {
	b := newOwned(2)
	tk, _ := b.Take(stripe.Of(0))
	if b.OwnSlot(tk, stripe.Of(1)) != nil || b.OwnSlot(tk, stripe.Shared) != nil {
		t.Fatal("OwnSlot found processor 0's ticket from another processor")
	}
	if b.OwnSlot(tk, stripe.Of(0)) == nil {
		t.Fatal("OwnSlot did not find processor 0's ticket from processor 0")
	}
	if !end(b, tk, stripe.Of(1)) {
		t.Fatal("ending on another processor reported ended already")
	}
	if end(b, tk, stripe.Of(0)) {
		t.Fatal("ending again on the owning processor reported ending the call")
	}
}

// A stale ticket cannot end the later call that reuses its slot.
func TestStaleTicketDoesNotEndLaterCall(t *testing.T) {
	for _, owned := range []int{1, 0} { // a processor's block, then the shared one
		b := newOwned(owned)
		p := stripe.Of(0)
		stale, _ := b.Take(p)
		end(b, stale, p)
		var live ID
		for range Slots { // the last Take reuses stale's slot
			var seq uint64
			live, seq = b.Take(p)
			if seq%Slots != 1 {
				end(b, live, p)
			}
		}
		if b.slot(live) != b.slot(stale) {
			t.Fatalf("owned %d: the last ticket's slot is not the stale one's", owned)
		}
		if end(b, stale, p) {
			t.Fatalf("owned %d: a stale ticket ended the call reusing its slot", owned)
		}
		if !end(b, live, p) {
			t.Fatalf("owned %d: the live call's own end reported ended already", owned)
		}
	}
}

// A held slot is skipped: the call coming to it takes the next free slot,
// and a call whose slot and the next Probes slots are all held gets the
// zero ticket, which ends (true) every time.
func TestHeldSlotsSkippedThenZero(t *testing.T) {
	for _, owned := range []int{1, 0} {
		b := newOwned(owned)
		p := stripe.Of(0)
		held := make(map[ID]bool)
		for range 1 + Probes {
			tk, _ := b.Take(p)
			held[tk] = true // never ended
		}
		// Cycle the block until the sequence comes back to the held slots.
		for i := 1 + Probes; i < Slots; i++ {
			tk, _ := b.Take(p)
			end(b, tk, p)
		}
		tk, seq := b.Take(p)
		if tk != 0 {
			t.Fatalf("owned %d: Take = %#x with %d slots in a row held, want the zero ticket", owned, tk, 1+Probes)
		}
		if !end(b, 0, p) || !end(b, 0, p) {
			t.Fatalf("owned %d: the zero ticket reported ended already", owned)
		}
		next, nextSeq := b.Take(p)
		if next == 0 || held[next] || nextSeq <= seq {
			t.Fatalf("owned %d: Take after the held run = %#x seq %d, want a fresh ticket after seq %d", owned, next, nextSeq, seq)
		}
		// One held slot only: the call coming to it skips to the next.
		for range Slots - 1 {
			tk, _ := b.Take(p)
			end(b, tk, p)
		}
		for h := range held {
			end(b, h, p)
		}
		first, _ := b.Take(p)
		for range Slots - 1 {
			tk, _ := b.Take(p)
			end(b, tk, p)
		}
		skip, skipSeq := b.Take(p)
		if skip == 0 || skip == first || b.slot(skip) == b.slot(first) {
			t.Fatalf("owned %d: Take onto a held slot = %#x (seq %d), want the next slot's ticket", owned, skip, skipSeq)
		}
	}
}

// The shared block is the fallback for processors beyond the per-processor
// blocks and for builds without pinning (stripe.Shared): tickets taken on
// it from many goroutines at once are unique and each ends once.
func TestSharedBlockConcurrent(t *testing.T) {
	b := newOwned(2)
	const goroutines, calls = 4, 2000
	var wg sync.WaitGroup
	var held sync.Map // the tickets held now
	var ends, doubles atomic.Int64
	for g := range goroutines {
		p := stripe.Shared
		if g%2 == 1 {
			p = stripe.Of(5) // beyond the owned blocks
		}
		wg.Go(func() {
			var mine []ID
			for range calls {
				tk, _ := b.Take(p)
				if tk == 0 {
					t.Error("Take gave the zero ticket with few slots held")
					continue
				}
				if _, dup := held.LoadOrStore(tk, true); dup {
					t.Errorf("ticket %#x handed out twice while held", tk)
				}
				if mine = append(mine, tk); len(mine) < 8 {
					continue
				}
				for _, m := range mine {
					held.Delete(m)
					if end(b, m, p) {
						ends.Add(1)
					}
					if end(b, m, stripe.Of(0)) {
						doubles.Add(1)
					}
				}
				mine = mine[:0]
			}
		})
	}
	wg.Wait()
	if want := int64(goroutines * calls); ends.Load() != want || doubles.Load() != 0 {
		t.Fatalf("%d ends and %d second ends counted, want %d and 0 (every ticket once)", ends.Load(), doubles.Load(), want)
	}
	// Skipped sequence numbers (held slots) are drawn but never handed out.
	if n := b.words[2*block].Load(); n < goroutines*calls {
		t.Fatalf("shared block drew %d sequence numbers, want at least %d", n, goroutines*calls)
	}
	if b.words[0].Load() != 0 || b.words[block].Load() != 0 {
		t.Fatal("a processor block drew a sequence number for a shared-block call")
	}
}

// New gives every processor that owns stripes a block of its own; without
// pinning (sentinel_nolinkname) there are none and every ticket is the
// shared block's.
func TestNewBlocksFollowStripes(t *testing.T) {
	b := New()
	if b.owned != stripe.Count() {
		t.Fatalf("owned %d blocks, want stripe.Count() = %d", b.owned, stripe.Count())
	}
	p := stripe.Pin()
	tk, _ := b.Take(p)
	stripe.Unpin()
	blk := int(uint64(tk) >> shift)
	if !stripe.Linked && blk != b.owned {
		t.Fatalf("without pinning the ticket is block %d's, want the shared block %d", blk, b.owned)
	}
	if stripe.Linked && blk != p.Index() && blk != b.owned {
		t.Fatalf("ticket of block %d taken on processor %d", blk, p.Index())
	}
}
