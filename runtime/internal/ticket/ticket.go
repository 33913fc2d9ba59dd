package ticket

import (
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// ID names a slot and the call holding it: the block in the top 8 bits, the
// block's sequence number below. The zero ID names no slot.
type ID uint64

// Geometry of a block: a cache line holding the block's sequence counter,
// then the slots.
const (
	header = 8
	// Slots is how many slots a block has (a power of two): a call's slot
	// is its sequence number modulo Slots.
	Slots = 512
	block = header + Slots
	shift = 56
)

// Probes is how many held slots Take skips before it gives up on a
// ticket. A call that runs for long (a stream kept open, an Entry never
// exited) holds its slot; without skipping, every Slots-th call on that
// processor would go without a ticket for as long as it runs.
const Probes = 16

// Book holds the blocks: blocks 0..owned-1 belong to processors
// 0..owned-1, block owned is shared.
type Book struct {
	words []atomic.Uint64
	base  unsafe.Pointer // &words[0]: slots are addressed from tickets, which only Take builds
	owned int
}

// New returns a book with a block for each processor that owns stripes
// (stripe.Count) and the shared block.
func New() *Book { return newOwned(stripe.Count()) }

// newOwned returns a book with owned per-processor blocks and the shared
// one.
func newOwned(owned int) *Book {
	words := make([]atomic.Uint64, (owned+1)*block)
	return &Book{words: words, base: unsafe.Pointer(&words[0]), owned: owned}
}

// word is word i of block blk.
func (b *Book) word(blk, i uint64) *atomic.Uint64 {
	return (*atomic.Uint64)(unsafe.Add(b.base, (blk*block+i)*8))
}

// slot is the slot t names.
func (b *Book) slot(t ID) *atomic.Uint64 {
	return b.word(uint64(t)>>shift, header+uint64(t)&(Slots-1))
}

// Take gives a call on processor p (the caller is pinned to p) a ticket, or
// the zero ID when its slot and the next Probes are held, and the block's
// sequence number the call drew, which counts the block's calls.
func (b *Book) Take(p stripe.P) (t ID, seq uint64) {
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
	t = ID(uint64(i)<<shift | seq)
	s := b.slot(t)
	if s.Load() != 0 {
		return b.takeSkipping(counter, uint64(i), seq)
	}
	stripe.Store(s, uint64(t))
	return t, seq
}

// takeSkipping is Take's slow path, for when the slot of sequence number
// seq is held: it draws the following sequence numbers until one names a
// free slot, at most Probes times. Tickets stay unique, since a skipped
// number is never handed out.
func (b *Book) takeSkipping(counter *atomic.Uint64, blk, seq uint64) (ID, uint64) {
	for range Probes {
		seq++
		t := ID(blk<<shift | seq)
		if s := b.slot(t); s.Load() == 0 {
			stripe.Store(counter, seq)
			stripe.Store(s, uint64(t))
			return t, seq
		}
	}
	stripe.Store(counter, seq)
	return 0, seq
}

// takeShared is Take on the shared block. Like Take, it skips held slots,
// up to Probes of them.
func (b *Book) takeShared() (ID, uint64) {
	counter := b.word(uint64(b.owned), 0)
	var seq uint64
	for range 1 + Probes {
		seq = counter.Add(1) & (1<<shift - 1)
		t := ID(uint64(b.owned)<<shift | seq)
		if b.slot(t).CompareAndSwap(0, uint64(t)) {
			return t, seq
		}
	}
	return 0, seq
}

// Ending a call's ticket is two steps, so that Exit inlines the step for a
// ticket of its own processor (one function for both exceeds the inliner's
// budget): OwnSlot finds the slot of a ticket taken on the processor Exit
// is pinned to, and EndOwn clears it; any other ticket goes to
// EndElsewhere.

// OwnSlot is t's slot when t is a ticket of p's own block (the caller is
// pinned to p), or nil.
func (b *Book) OwnSlot(t ID, p stripe.P) *atomic.Uint64 {
	if blk := int(uint64(t) >> shift); t == 0 || blk != p.Index() || blk >= b.owned {
		return nil
	}
	return b.slot(t)
}

// EndOwn ends the call holding t, whose slot s (from OwnSlot) is in the
// pinned processor's own block, reporting false when it had already ended.
// No one else fills the slot meanwhile, so a load and a plain store do.
func (b *Book) EndOwn(s *atomic.Uint64, t ID) bool {
	if s.Load() != uint64(t) {
		return false
	}
	stripe.Store(s, 0)
	return true
}

// EndElsewhere ends the call holding t, a ticket of another processor's
// block or of the shared block, reporting false when it had already ended.
// The zero ID reports true. Kept out of line: Exit inlines OwnSlot and
// EndOwn only.
//
//go:noinline
func (b *Book) EndElsewhere(t ID) bool {
	return t == 0 || b.slot(t).CompareAndSwap(uint64(t), 0)
}
