package leaparray

import (
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// TakePinned is a flow check and the pass it admits in one step: it reports
// whether counter 0 over the interval ending in window id, plus what was
// borrowed into it, plus delta, is at most limit, and when it is, adds delta
// to counter 0 in window id on p's stripe. Its answers and writes are
// exactly those of
//
//	if w.FitsPinned(id, delta, limit, p) {
//		w.AtID(id, p).Add(0, delta)
//		return true
//	}
//	return false
//
// which is what it does outside its fast path. The caller must be pinned to
// p (see package stripe).
//
// Why it exists: a guarded call with one QPS rule asks FitsPinned and then
// counts its pass in the very word FitsPinned read (its own stripe's counter
// 0). Done apart, the two locate that word twice and are two calls; here,
// when p has a stripe of its own, its cache answers and the word is in the
// window's current window with room below the next boundStep multiple, it
// is one load, one plain store and the cache's reads (see FitsPinned for
// why those answers are exact); a call the cache clearly refuses costs the
// same reads and no store.
func (w *Window) TakePinned(id, delta, limit int64, pinned stripe.P) bool {
	b, i := w.bound, pinned.Index()
	if b == nil || uint(i) >= maxOwned || w.everBorrowed.Load() {
		return w.takeSlow(id, delta, limit, pinned)
	}
	s := w.stripeOf(i)
	if s == nil {
		return w.takeSlow(id, delta, limit, pinned)
	}
	word := wordIn(s, uintptr(w.slot(id))*w.stripeBytes)
	old := word.Load()
	// The cache's line, located once: its words are read with atomic
	// loads, after each of which the compiler would locate it anew.
	cache := unsafe.Add(s, uintptr(w.bucketMask+1)*w.stripeBytes)
	if wordIn(cache, cacheID*wordBytes).Load() != uint64(id) || wordIn(cache, cacheVersion*wordBytes).Load() != b.version.Load() {
		return w.takeSlow(id, delta, limit, pinned) // the cache is stale
	}
	own, current := int64(0), old>>countBits == uint64(id)&tagMask
	if current {
		own = int64(old & countMask)
	}
	low := int64(wordIn(cache, cacheOthers*wordBytes).Load()) + own + delta
	if low > limit {
		return false // FitsPinned's clear no, from the same reads
	}
	next := old + uint64(delta)
	if !current || low+w.slack() > limit || old^next >= w.xorLimit {
		// The word holds an older window (addSlow resets it), the answer
		// is not clearly yes, or the write would cross a boundStep
		// multiple (which addSlow announces) or overflow the count (a
		// negative delta too): the two steps decide.
		return w.takeSlow(id, delta, limit, pinned)
	}
	stripe.Store(word, next)
	return true
}

// takeSlow is TakePinned as its two steps.
//
//go:noinline
func (w *Window) takeSlow(id, delta, limit int64, p stripe.P) bool {
	if !w.FitsPinned(id, delta, limit, p) {
		return false
	}
	w.cursor(id, p).Add(0, delta)
	return true
}
