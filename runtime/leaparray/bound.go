package leaparray

import (
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Limit checks without reading other processors' stripes.
//
// A flow check asks one question per call: does counter 0 over the interval,
// plus this call's delta, stay within a limit? Summing every stripe answers it
// exactly but reads every processor's line of the current bucket, which those
// processors keep writing: on two cores that is a cache miss per call on each
// side, and it doubled the cost of a call. Windows built with Config.Bounded
// answer it from a per-processor cache instead whenever the answer is clear,
// and read every stripe only when it is close.
//
// The bookkeeping: each counter-0 word announces its growth by bumping a
// shared version number whenever its count crosses a multiple of boundStep,
// so between two bumps any word grows by at most boundStep-1. A pinned reader
// that sums the stripes keeps, in a line of its own processor, the window ID,
// the version it read before summing, and the sum minus its own stripe's word
// in the current bucket ("others"). Later, while the ID and the version are
// unchanged, the true count lies between
//
//	others + own        and        others + own + slack
//	slack = (Buckets × stripes read − 1) × (boundStep − 1)
//
// where own is the reader's current word, read live: counts of one window
// only grow (Reset bumps the version), and every word but the live one has
// grown by less than boundStep since the sum. If the upper end plus delta is
// within the limit the call fits; if the lower end plus delta is over it, it
// does not; in between the reader sums every stripe and decides exactly. So
// every answer is the one the full sum gives: the cache never lets a call
// through that the sum would refuse, nor refuses one it would let through.
// What neither can see is a write racing with the check (a call on another
// processor between its own check and its write), as with any check-then-add
// counter; that race is unchanged.
//
// The cost: one read of the version line (shared, rarely written), the cache
// line and the own word, all normally in the reader's cache; and one atomic
// add per boundStep counts per processor, which sends every reader back to
// one full sum. With P processors passing calls, each re-sums about every
// boundStep/(P-1) of its own calls, so the saving shrinks as P grows, and a
// larger step would trade a larger slack for fewer re-sums.
const boundStep = 64

// bound is the bookkeeping of a Bounded window: the version, on a cache
// line of its own (it is read on every check), in the window's allocation
// after the shared stripe. Its fields are words only, as the words it
// lives among. Each owned stripe carries
// its processor's cache in one more line after its buckets (see claim):
// cacheID, cacheVersion and cacheOthers words, written only by that
// processor, while pinned to it.
type bound struct {
	// version is bumped by every counter-0 write that crosses a multiple of
	// boundStep, by every claim of a stripe, and by Reset.
	version atomic.Uint64
	// slack is what Window.slack returns; written only when a stripe is
	// added to what reads sum.
	slack atomic.Int64
	// The rest of the line may hold the window's borrowed ring.
	_ [boundSpare]uint64
}

// boundSpare is how many words of a bound's line its fields leave free.
const boundSpare = wordsPerLine - 2

// Word positions in a processor's cache line.
const (
	cacheID      = 0
	cacheVersion = 1
	cacheOthers  = 2
)

// noWindow is a cacheID no window has (IDs that far below zero would need
// times millions of years before the clock's zero).
const noWindow = uint64(1) << 63

// cacheWord is word i of the cache line of the processor whose stripe
// starts at s.
func (w *Window) cacheWord(s unsafe.Pointer, i int) *atomic.Uint64 {
	return wordIn(s, uintptr(w.bucketMask+1)*w.stripeBytes+uintptr(i)*wordBytes)
}

// slack is how far the true count can lie above a valid cached one (see
// boundStep), for the stripes read now. It is kept in the window, as it
// is read on every check.
func (w *Window) slack() int64 { return w.bound.slack.Load() }

// growSlack raises the slack to cover the stripes read now. Stripes are
// never given back, so the slack only grows, and concurrent updates keep
// the largest.
func (w *Window) growSlack() {
	next := (int64(w.buckets)*w.stripesRead() - 1) * (boundStep - 1)
	for old := w.bound.slack.Load(); next > old; old = w.bound.slack.Load() {
		if w.bound.slack.CompareAndSwap(old, next) {
			return
		}
	}
}

// announce bumps the version when a counter-0 word's count went from before
// to after across a multiple of boundStep.
func (b *bound) announce(before, after uint64) {
	if before^after >= boundStep {
		b.version.Add(1)
	}
}

// FitsPinned reports whether counter 0 over the interval that ends in window
// id, plus what was borrowed into it, plus delta, is at most limit: exactly
// CountWithBorrowedAt(id, 0)+delta <= limit. The caller must be pinned to p
// (see package stripe). On a window built with Config.Bounded, an answer that is clear
// either way (far below the limit, or over it already) is found without
// reading other processors' stripes (see the comment on boundStep); near the
// limit, and on other windows, it sums them.
func (w *Window) FitsPinned(id, delta, limit int64, pinned stripe.P) bool {
	b, p := w.bound, pinned.Index()
	if b == nil || uint(p) >= maxOwned || w.everBorrowed.Load() {
		return w.CountWithBorrowedAt(id, 0)+delta <= limit
	}
	s := w.stripeOf(p)
	if s == nil {
		// No stripe, so no cache: this processor has not claimed a
		// stripe of the window (it writes the shared one).
		return w.count(id, 0)+delta <= limit
	}
	own := countIn(wordIn(s, uintptr(w.slot(id))*w.stripeBytes), id)
	version := b.version.Load()
	cachedID, cachedVersion := w.cacheWord(s, cacheID), w.cacheWord(s, cacheVersion)
	cachedOthers := w.cacheWord(s, cacheOthers)
	if cachedID.Load() == uint64(id) && cachedVersion.Load() == version {
		// Counts of one window only grow, so the cached sum is also a
		// lower bound: a call that does not fit even on it does not fit.
		low := int64(cachedOthers.Load()) + own + delta
		if low+w.slack() <= limit {
			return true
		}
		if low > limit {
			return false
		}
	}
	total := w.count(id, 0)
	// Refresh the cache only when it changed: the stores are the costly
	// part, and near the limit every call comes this way.
	if others := uint64(total - own); cachedOthers.Load() != others {
		stripe.Store(cachedOthers, others)
	}
	if cachedVersion.Load() != version {
		stripe.Store(cachedVersion, version)
	}
	if cachedID.Load() != uint64(id) {
		stripe.Store(cachedID, uint64(id))
	}
	return total+delta <= limit
}
