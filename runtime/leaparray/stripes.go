package leaparray

import (
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/procslots"
)

// Owned stripes are allocated where a window is written hard, not up front.
//
// A stripe per processor made every window cost its buckets once per core
// (an idle resource took 7.7 KB at GOMAXPROCS=16), although most resources
// are written by one processor at a time, if at all. So a window starts
// with the shared stripe only, and a processor pinned to write it gets a
// stripe of its own (is said to claim one) in three cases:
//   - it is the window's first writer (no processor has a stripe yet): a
//     window used from one goroutine keeps the plain-store path it had;
//   - its compare-and-swap on the shared stripe failed: another processor
//     wrote the same word in between, so the window is contended;
//   - its write took a word of the shared stripe across a multiple of
//     sharedBusy: the window is busy, and a goroutine that moved to this
//     processor (or traffic spread thinly over processors) would otherwise
//     pay a locked instruction per write for good.
//
// Other writes from processors without a stripe go to the shared stripe by
// compare-and-swap, which is correct on any processor and costs a locked
// instruction instead of a plain store. A claim allocates once (a stripe's
// buckets, plus the line of FitsPinned's cache on Bounded windows) while
// the writer is pinned, as sync.Pool allocates its per-processor pools while
// pinned; it never happens again for that processor and window. Until it
// claims, a processor's slot of Window.procs is nil, and its writes go to
// the shared stripe. The slots are a procslots.Table: one word until the
// window's first claim, which gives it an array of slots of its own (and
// its gauge's first claim likewise). (The slots once held the shared stripe, sparing the
// write path a test for nil; but a load that creates 100k resources then
// wrote 32 pointers per resource, window and gauge slots, under the
// collector's write barrier, about 20 ms of such a load, and the test
// costs what the comparison with the shared stripe it replaces did.) Only
// the processor itself stores its slot, so claims need no lock.
//
// Reads sum the shared stripe (once used) and every claimed stripe, in the
// order of the processors' indexes, up to Window.hi.

// sharedBusy is the count, per word of a bucket of the shared stripe, at
// whose multiples the writing processor claims a stripe (a power of two):
// about 256 calls a second through the shared stripe of a second-level
// window. Windows written less than that stay small.
const sharedBusy = 128

// maxOwned caps how many processors can own a stripe of one window: reads
// sum every stripe, so more stripes make reads slower. Processors with
// higher indexes share the shared stripe.
const maxOwned = procslots.Len

// claim gives processor i (< maxOwned) a stripe of its own; the caller is
// pinned to it.
func (w *Window) claim(i int) {
	if w.owns(i) {
		return
	}
	n := int(w.bucketMask+1) * int(w.stripeBytes/wordBytes)
	if w.bound != nil {
		n += wordsPerLine // the processor's FitsPinned cache, after its buckets
	}
	s := alignedWords(n)
	if w.bound != nil {
		s[n-wordsPerLine+cacheID].Store(noWindow)
	}
	w.procs.Store(i, unsafe.Pointer(&s[0]))
	w.claimed.Add(1)
	for h := w.hi.Load(); h <= int32(i); h = w.hi.Load() {
		if w.hi.CompareAndSwap(h, int32(i+1)) {
			break
		}
	}
	if g := w.gauge.Load(); g != nil {
		g.claim(i)
	}
	if w.bound != nil {
		w.growSlack()
		// One more stripe can grow unannounced: cached sums must not count
		// on the old slack (see boundStep).
		w.bound.version.Add(1)
	}
}

// stripeOf is processor i's stripe (i < maxOwned): its own, or nil until
// it claims one.
func (w *Window) stripeOf(i int) unsafe.Pointer { return w.procs.Load(i) }

// owns reports whether processor i (< maxOwned) has a stripe of its own.
func (w *Window) owns(i int) bool { return w.stripeOf(i) != nil }

// eachStripe calls fn with the first word of the shared stripe, when used,
// and of every claimed stripe.
func (w *Window) eachStripe(fn func(first unsafe.Pointer)) {
	if w.sharedUsed.Load() {
		fn(w.shared)
	}
	for i, hi := 0, int(w.hi.Load()); i < hi && i < maxOwned; i++ {
		if s := w.stripeOf(i); s != nil {
			fn(s)
		}
	}
}

// stripesRead is how many stripes a read sums now.
func (w *Window) stripesRead() int64 {
	n := int64(w.claimed.Load())
	if w.sharedUsed.Load() {
		n++
	}
	return n
}

// Stripes reports how many processors have a stripe of their own in w, for
// tests and memory accounting.
func (w *Window) Stripes() int { return int(w.claimed.Load()) }
