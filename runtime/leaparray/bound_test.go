package leaparray

import (
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// withProcs makes windows built inside fn have several owned stripes, even
// on a one-CPU machine. Tests of owned stripes skip in builds without
// pinning (tag sentinel_nolinkname), whose windows have none.
func withProcs(t *testing.T, n int) {
	t.Helper()
	if !stripe.Linked {
		t.Skip("no owned stripes without the linkname")
	}
	prev := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
}

// claimAll gives processors 0..n-1 a stripe of w each, as contention
// would, so that tests can address owned stripes directly.
func claimAll(w *Window, n int) *Window {
	for i := range n {
		w.claim(i)
	}
	return w
}

// stripeAt is counter 0 of processor p's stripe in window id's bucket.
func stripeAt(w *Window, id int64, p int) *atomic.Uint64 {
	return wordIn(w.stripeOf(p), uintptr(w.slot(id))*w.stripeBytes)
}

// cacheValid says whether p's cached sum would be consulted for window id.
func cacheValid(w *Window, id int64, p stripe.P) bool {
	s := w.stripeOf(p.Index())
	if s == nil {
		return false
	}
	return w.cacheWord(s, cacheID).Load() == uint64(id) && w.cacheWord(s, cacheVersion).Load() == w.bound.version.Load()
}

// FitsPinned must give the answer of the full sum, whatever the writes on
// the other stripes since a reader's cache was filled, for limits on both
// sides of the count and inside the slack. The test writes every stripe
// from one goroutine (stripes are addressed directly, so no real pinning
// is needed) and counts how many answers came from a valid cache, so that
// it fails if the cache is never used.
func TestFitsPinnedAgreesWithFullSum(t *testing.T) {
	withProcs(t, 4)
	const stripes = 4
	w := claimAll(second(3), stripes)
	rng := rand.New(rand.NewPCG(1, 2))
	var cached, checks int
	nowMs := int64(10_000)
	for step := range 20_000 {
		if step%500 == 0 {
			nowMs += int64(rng.IntN(400)) // crosses buckets now and then
		}
		id := w.ID(nowMs)
		writer := stripe.Of(rng.IntN(stripes))
		w.cursor(id, writer).Add(0, int64(1+rng.IntN(5)))
		w.cursor(id, writer).Add(1, 5) // other counters must not matter

		reader := stripe.Of(rng.IntN(stripes))
		sum := w.Count(nowMs, 0)
		delta := int64(1 + rng.IntN(3))
		slack := w.slack()
		for _, limit := range []int64{
			sum + delta - 1, sum + delta, // the exact boundary
			sum + delta + slack - 1, sum + delta + slack, // the edge of the cache's margin
			sum + delta + int64(rng.Int64N(3*slack)), sum - int64(rng.Int64N(100)),
		} {
			checks++
			if cacheValid(w, id, reader) {
				cached++
			}
			want := sum+delta <= limit
			if got := w.FitsPinned(id, delta, limit, reader); got != want {
				t.Fatalf("step %d: FitsPinned(count %d + %d <= %d) = %v, want %v", step, sum, delta, limit, got, want)
			}
		}
	}
	if cached < checks/4 {
		t.Fatalf("only %d of %d answers could use the cache: it is not doing its job", cached, checks)
	}
}

// A counter-0 word announces its growth each time it crosses a multiple of
// boundStep, and only then; other counters never announce.
func TestCounterZeroAnnouncesEveryBoundStep(t *testing.T) {
	withProcs(t, 2)
	w := claimAll(second(2), 1)
	c := w.cursor(w.ID(0), stripe.Of(0))
	base := w.bound.version.Load()
	version := func() uint64 { return w.bound.version.Load() - base }
	c.Add(0, boundStep-1)
	if v := version(); v != 0 {
		t.Fatalf("version %d after %d counts, want 0", v, boundStep-1)
	}
	c.Add(0, 1)
	if v := version(); v != 1 {
		t.Fatalf("version %d after crossing %d, want 1", v, boundStep)
	}
	c.Add(0, 3*boundStep) // one write crossing several multiples: one bump
	if v := version(); v != 2 {
		t.Fatalf("version %d after a long jump, want 2", v)
	}
	c.Add(1, 10*boundStep)
	if v := version(); v != 2 {
		t.Fatalf("counter 1 bumped the version to %d", v)
	}
	w.Add(0, 0, boundStep) // the shared stripe announces too
	if v := version(); v != 3 {
		t.Fatalf("version %d after a shared-stripe crossing, want 3", v)
	}
}

// While the version is unchanged a reader trusts its cached sum plus the
// slack; a crossing anywhere sends it back to the full sum. The test
// stores a word behind the window's back (no announcement) to show which
// of the two answered.
func TestFitsPinnedTrustsCacheUntilAnnounced(t *testing.T) {
	withProcs(t, 2)
	w := claimAll(second(1), 2)
	id := w.ID(0)
	const limit = 1_000_000
	if !w.FitsPinned(id, 1, limit, stripe.Of(0)) { // fills reader 0's cache
		t.Fatal("empty window does not fit")
	}
	hidden := stripeAt(w, id, 1)
	hidden.Store(uint64(id)&tagMask<<countBits | limit) // unannounced
	if !w.FitsPinned(id, 1, limit, stripe.Of(0)) {
		t.Fatal("reader re-summed although nothing was announced")
	}
	w.cursor(id, stripe.Of(1)).Add(0, boundStep) // a crossing: the reader must look again
	if w.FitsPinned(id, 1, limit, stripe.Of(0)) {
		t.Fatal("reader kept its cache after an announced crossing")
	}
	if cacheValid(w, id, stripe.Of(1)) {
		t.Fatal("reader 1 has a cache it never filled")
	}
}

// Pinned checks and writes from many goroutines: the passes of one window
// reach the limit and exceed it by at most one call per other processor
// (a call whose check races with another's write), as with a full sum.
func TestFitsPinnedConcurrentLimit(t *testing.T) {
	withProcs(t, 4)
	w := second(1)
	const limit, goroutines, tries = 2000, 8, 1000
	id := w.ID(0)
	var passed atomic.Int64
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range tries {
				p := stripe.Pin()
				if w.FitsPinned(id, 1, limit, p) {
					w.cursor(id, p).Add(0, 1)
					passed.Add(1)
				}
				stripe.Unpin()
			}
		}()
	}
	wg.Wait()
	n := passed.Load()
	if counted := w.Count(0, 0); counted != n {
		t.Fatalf("window counted %d, callers saw %d passes", counted, n)
	}
	if over := int64(runtime.GOMAXPROCS(0) - 1); n < limit || n > limit+over {
		t.Fatalf("%d passes, want %d to %d", n, limit, limit+over)
	}
}

// The worst case the slack must cover: after a reader's sum, every word but
// its own live one (both buckets of the interval, every stripe, the older
// bucket through late writers) grows by boundStep-1 without announcing.
// The reader must then still refuse a call that would exceed the limit by
// one, and admit one that meets it.
func TestFitsPinnedSlackCoversWorstCase(t *testing.T) {
	withProcs(t, 4)
	const owned = 4
	w := claimAll(second(1), owned)
	reader := stripe.Of(0)
	nowMs := int64(5_700) // second bucket of its interval
	id := w.ID(nowMs)
	for s := range owned {
		w.cursor(id-1, stripe.Of(s)).Add(0, 2*boundStep) // multiples of boundStep:
		w.cursor(id, stripe.Of(s)).Add(0, boundStep)     // the next count announces nothing
	}
	if !w.FitsPinned(id, 1, 1<<40, reader) { // the sum that fills the cache
		t.Fatal("window does not fit a huge limit")
	}
	version := w.bound.version.Load()
	for s := range owned {
		if stripe.Of(s) != reader {
			w.cursor(id, stripe.Of(s)).Add(0, boundStep-1)
		}
		w.cursor(id-1, stripe.Of(s)).Add(0, boundStep-1)
	}
	if w.bound.version.Load() != version {
		t.Fatal("growth below boundStep announced itself")
	}
	sum := w.Count(nowMs, 0)
	if w.FitsPinned(id, 1, sum, reader) {
		t.Fatalf("count %d + 1 fits a limit of %d: the slack %d is too small", sum, sum, w.slack())
	}
	if !w.FitsPinned(id, 1, sum+1, reader) {
		t.Fatalf("count %d + 1 does not fit a limit of %d", sum, sum+1)
	}
}
