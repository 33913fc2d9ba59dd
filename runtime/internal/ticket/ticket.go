package runtime

import (
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Entry is a value, and a copy of it can be exited as well as the
// original. So that a call is still counted once, each admitted call takes
// a ticket: a slot word that holds the ticket until the call's first Exit
// clears it. Later Exits of any copy find the word changed (zero, or a
// later call's ticket once the slot is reused) and do nothing.
//
// Slots come in one block per processor, taken and cleared by that
// processor with plain stores while pinned, plus a shared block for
// processors beyond the blocks and for builds without pinning, taken and
// cleared with compare-and-swap. A copy exited on another processor clears
// with compare-and-swap too. A call's slot is fixed by its sequence number;
// when that slot is still held (a call started ticketSlots calls earlier on
// the same processor is still running) the processor's block skips to the
// next sequence numbers, up to ticketProbes of them; only when all of those
// slots are held too does the call get no ticket, and then only the Entry
// value's own flag guards it.
//
// What is not covered: two copies of one Entry exited at the same instant on
// different processors may both count, as before tickets.

// ticket names a slot and the call holding it: the block in the top 8 bits,
// the block's sequence number below. The zero ticket names no slot.
type ticket uint64

// Geometry of a block: a cache line holding the block's sequence counter,
// then the slots.
const (
	ticketHeader = 8
	ticketSlots  = 512 // a power of two
	ticketBlock  = ticketHeader + ticketSlots
	ticketShift  = 56
)

// ticketBook holds the blocks: blocks 0..owned-1 belong to processors
// 0..owned-1, block owned is shared.
type ticketBook struct {
	words []atomic.Uint64
	base  unsafe.Pointer // &words[0]: slots are addressed from tickets, which only take builds
	owned int
}

var exitTickets = newTicketBook()

func newTicketBook() *ticketBook {
	owned := stripe.Count()
	words := make([]atomic.Uint64, (owned+1)*ticketBlock)
	return &ticketBook{words: words, base: unsafe.Pointer(&words[0]), owned: owned}
}

// word is word i of block blk.
func (b *ticketBook) word(blk, i uint64) *atomic.Uint64 {
	return (*atomic.Uint64)(unsafe.Add(b.base, (blk*ticketBlock+i)*8))
}

// slot is the slot t names.
func (b *ticketBook) slot(t ticket) *atomic.Uint64 {
	return b.word(uint64(t)>>ticketShift, ticketHeader+uint64(t)&(ticketSlots-1))
}

// take gives a call on processor p (the caller is pinned to p) a ticket, or
// the zero ticket when its slot is held, and the block's sequence number
// the call drew.
func (b *ticketBook) take(p stripe.P) (t ticket, seq uint64) {
	i := p.Index()
	if uint(i) >= uint(b.owned) {
		return b.takeShared()
	}
	// Only this processor writes its block's counter and fills its free
	// slots, and nobody else writes a free slot (an Exit only clears a slot
	// holding its own ticket), so plain stores do.
	counter := b.word(uint64(i), 0)
	seq = counter.Load() + 1
	stripe.Store(counter, seq)
	t = ticket(uint64(i)<<ticketShift | seq)
	s := b.slot(t)
	if s.Load() != 0 {
		return b.takeSkipping(counter, uint64(i), seq)
	}
	stripe.Store(s, uint64(t))
	return t, seq
}

// ticketProbes is how many held slots take skips before it gives up on a
// ticket. A call that runs for long (a stream kept open, an Entry never
// exited) holds its slot; without skipping, every ticketSlots-th call on
// that processor would go without a ticket for as long as it runs.
const ticketProbes = 16

// takeSkipping is take's slow path, for when the slot of sequence number
// seq is held: it draws the following sequence numbers until one names a
// free slot, at most ticketProbes times. Tickets stay unique, since a
// skipped number is never handed out.
func (b *ticketBook) takeSkipping(counter *atomic.Uint64, blk, seq uint64) (ticket, uint64) {
	for range ticketProbes {
		seq++
		t := ticket(blk<<ticketShift | seq)
		if s := b.slot(t); s.Load() == 0 {
			stripe.Store(counter, seq)
			stripe.Store(s, uint64(t))
			return t, seq
		}
	}
	stripe.Store(counter, seq)
	return 0, seq
}

// takeShared is take on the shared block. Like take, it skips held slots,
// up to ticketProbes of them.
func (b *ticketBook) takeShared() (ticket, uint64) {
	counter := b.word(uint64(b.owned), 0)
	var seq uint64
	for range 1 + ticketProbes {
		seq = counter.Add(1) & (1<<ticketShift - 1)
		t := ticket(uint64(b.owned)<<ticketShift | seq)
		if b.slot(t).CompareAndSwap(0, uint64(t)) {
			return t, seq
		}
	}
	return 0, seq
}

// Ending a call's ticket is two steps, so that Exit inlines the common one
// (a single function for both exceeds the inliner's budget): ownSlot finds
// the slot of a ticket taken on the processor Exit is pinned to, and
// endOwn clears it; any other ticket goes to endElsewhere.

// ownSlot is t's slot when t is a ticket of p's own block (the caller is
// pinned to p), or nil.
func (b *ticketBook) ownSlot(t ticket, p stripe.P) *atomic.Uint64 {
	if blk := int(uint64(t) >> ticketShift); t == 0 || blk != p.Index() || blk >= b.owned {
		return nil
	}
	return b.slot(t)
}

// endOwn ends the call holding t, whose slot s is in the pinned
// processor's own block, reporting false when it had already ended. No one
// else fills the slot meanwhile, so a load and a plain store do.
func (b *ticketBook) endOwn(s *atomic.Uint64, t ticket) bool {
	if s.Load() != uint64(t) {
		return false
	}
	stripe.Store(s, 0)
	return true
}

// endElsewhere ends the call holding t, a ticket of another processor's
// block or of the shared block, reporting false when it had already ended.
// The zero ticket reports true. Kept out of Exit, which inlines the common
// case only.
//
//go:noinline
func (b *ticketBook) endElsewhere(t ticket) bool {
	return t == 0 || b.slot(t).CompareAndSwap(uint64(t), 0)
}
