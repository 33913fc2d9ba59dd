package runtime

import (
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Entry is a value, and a copy of it can be exited as well as the
// original. So that a call is still counted once, each admitted call takes
// a ticket: a slot word that holds the call's sequence number until its
// first Exit swaps it to zero. Later Exits of any copy find the word changed
// (zero, or a later call's number once the slot is reused) and do nothing.
//
// Slots come in one block per processor, taken pinned with plain stores,
// plus a shared block taken with compare-and-swap by processors beyond the
// blocks and by builds without pinning. A take probes a few slots from its
// sequence number on; when all are held by calls still running (hundreds of
// calls in flight per processor) the call gets no ticket and only the Entry
// value's own flag guards it, as before tickets.

// Geometry of a block: a cache line holding the block's sequence counter,
// then the slots.
const (
	ticketHeader = 8
	ticketSlots  = 512 // a power of two
	ticketBlock  = ticketHeader + ticketSlots
	ticketProbes = 4
)

// ticket is an admitted call's claim on a slot; the zero ticket has none.
type ticket struct {
	slot *atomic.Uint64
	seq  uint64
}

// use ends the ticket's call, reporting false when it had already ended.
// A call without a ticket reports true.
func (t ticket) use() bool { return t.slot == nil || t.slot.CompareAndSwap(t.seq, 0) }

// ticketBook holds the blocks: blocks 0..owned-1 belong to processors
// 0..owned-1, block owned is shared.
type ticketBook struct {
	words []atomic.Uint64
	owned int
}

var exitTickets = newTicketBook()

func newTicketBook() *ticketBook {
	owned := stripe.Count()
	return &ticketBook{words: make([]atomic.Uint64, (owned+1)*ticketBlock), owned: owned}
}

// take claims a free slot for a call on processor p (the caller is pinned
// to p).
func (b *ticketBook) take(p stripe.P) ticket {
	i := p.Index()
	if uint(i) >= uint(b.owned) {
		return b.takeShared()
	}
	block := b.words[i*ticketBlock : (i+1)*ticketBlock]
	// Only this processor writes its block's counter and claims its free
	// slots; a free slot is written by nobody else (an Exit only swaps a
	// slot holding its own number), so plain stores do.
	seq := block[0].Load() + 1
	stripe.Store(&block[0], seq)
	for k := range uint64(ticketProbes) {
		s := &block[ticketHeader+(seq+k)&(ticketSlots-1)]
		if s.Load() == 0 {
			stripe.Store(s, seq)
			return ticket{slot: s, seq: seq}
		}
	}
	return ticket{}
}

// takeShared is take on the shared block.
func (b *ticketBook) takeShared() ticket {
	block := b.words[b.owned*ticketBlock:]
	seq := block[0].Add(1)
	for k := range uint64(ticketProbes) {
		s := &block[ticketHeader+(seq+k)&(ticketSlots-1)]
		if s.CompareAndSwap(0, seq) {
			return ticket{slot: s, seq: seq}
		}
	}
	return ticket{}
}
